# shellcheck shell=bash
# Sourced by scripts/bench: every figure of the run goes through `figure`, and `print_figures` ends the run with
# one table of them all, each figure that has a target marked met or missed (a missed target is a result, not a
# failure of the script). Programs the script runs (Benchmarks/StoreBenchmark) print the same rows as lines
# `FIGURE<TAB>label<TAB>value<TAB>unit[<TAB>op<TAB>threshold]`; `collect_figures FILE` takes them from its output.
# Uses the caller's `work` directory.

figures_file() { echo "$work/figures.tsv"; }

# figure LABEL VALUE UNIT [OP THRESHOLD]   OP is >= or <=; e.g. figure "PushTally / bare durable baseline" 0.83 x ">=" 0.95
figure() {
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" "${5:-}" >>"$(figures_file)"
}

# collect_figures FILE: the FIGURE lines a benchmark program printed.
collect_figures() {
  { grep '^FIGURE	' "$1" || true; } | cut -f2- >>"$(figures_file)"
}

# print_figures: the table, then how many targets were met; exit status 0 either way.
print_figures() {
  [[ -s $(figures_file) ]] || { echo "no figures recorded"; return 0; }
  python3 - "$(figures_file)" "$(nproc)" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
def number(text):
    value = float(text)
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.2f}" if abs(value) >= 1 else f"{value:.2f}"
table, met, missed = [], 0, 0
for label, value, unit, op, threshold in (row + [""] * (5 - len(row)) for row in rows):
    target, status = "", ""
    if op:
        ok = float(value) >= float(threshold) if op == ">=" else float(value) <= float(threshold)
        target, status = f"{op} {number(threshold)} {unit}".rstrip(), "met" if ok else "MISSED"
        met, missed = met + ok, missed + (not ok)
    table.append((label, f"{number(value)} {unit}".rstrip(), target, status))
widths = [max(len(row[i]) for row in table + [("figure", "value", "target", "")]) for i in range(4)]
print(f"== every figure of this run ({sys.argv[2]} cores)")
for row in [("figure", "value", "target", "")] + table:
    print("  ".join(cell.ljust(width) if i == 0 else cell.rjust(width) if i == 1 else cell.ljust(width)
                    for i, (cell, width) in enumerate(zip(row, widths))).rstrip())
print(f"targets met: {met} of {met + missed}" + (f" ({missed} missed)" if missed else ""))
PY
}
