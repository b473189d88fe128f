package com.pushtally.android.core;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Starts {@link OutboxWriterMain} in a JVM of its own, on the classpath the build script gives the tests. */
final class ChildJvm {
    private ChildJvm() {}

    static Process startWriter(File directory, String prefix, int count, int maxEvents) throws IOException {
        String classpath = System.getProperty("pushtally.test.classpath");
        if (classpath == null) {
            throw new IllegalStateException("the system property pushtally.test.classpath is not set: run clients/android/build");
        }
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> command = new ArrayList<String>();
        command.add(java);
        // A small heap and no JIT tiers beyond the first: the child starts faster, and its speed does not matter.
        command.add("-Xmx64m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-cp");
        command.add(classpath);
        command.add(OutboxWriterMain.class.getName());
        command.add(directory.getPath());
        command.add(prefix);
        command.add(String.valueOf(count));
        command.add(String.valueOf(maxEvents));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    static BufferedReader lines(Process process) {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }
}
