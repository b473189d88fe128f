import ArgumentParser
import PushTallyCore

extension ServeCommand {
    /// How many names of each kind an app admits, from the flags, else the environment, else the defaults.
    /// Lowering a bound never takes a row or column away (admitted names stay admitted); it only stops new
    /// ones sooner.
    func nameBounds() throws -> NameBounds {
        let defaults = NameBounds()
        return NameBounds(
            actions: try bound(maxActionIds, flag: "max-action-ids", env: "PUSHTALLY_MAX_ACTION_IDS", default: defaults.actions),
            platforms: try bound(maxPlatforms, flag: "max-platforms", env: "PUSHTALLY_MAX_PLATFORMS", default: defaults.platforms),
            versions: try bound(maxVersions, flag: "max-versions", env: "PUSHTALLY_MAX_VERSIONS", default: defaults.versions))
    }

    private func bound(_ flag: Int?, flag name: String, env: String, default fallback: Int) throws -> Int {
        let count = try flag ?? environment(env).map { value in
            guard let count = Int(value) else { throw ValidationError("\(env) must be a number, not \(value)") }
            return count
        } ?? fallback
        guard (1...10_000).contains(count) else { throw ValidationError("--\(name) must be from 1 to 10000") }
        return count
    }
}
