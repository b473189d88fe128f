package com.pushtally.android.stubs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds the compile-only stubs in clients/android/stubs to android.jar's own rules: every API member says the
 * API level it needs, and every method body throws {@code RuntimeException("Stub!")}, so a stub can never
 * run in place of the platform. (That the Android layer calls nothing the stubs lack is the build's own
 * check: clients/android/build compiles the layer against them and stops if it does not compile.)
 */
class StubsTest {
    private static final Pattern API_LEVEL = Pattern.compile("^API [1-9][0-9]*\\b.*", Pattern.DOTALL);
    private static final String STUB_BODY = "throw new RuntimeException(\"Stub!\");";

    @Test
    void everyStubMemberCarriesItsApiLevelAndThrowsStub() throws IOException {
        int[] members = {0};
        List<String> problems = problems(sources(), members);
        assertTrue(members[0] > 50, "found only " + members[0] + " stub members: is pushtally.stubs.dir right?");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void theCheckCatchesAMemberWithoutItsLevelOrWithABody(@TempDir Path directory) throws IOException {
        Path stub = directory.resolve("Widget.java");
        Files.write(stub, Arrays.asList(
                "package android.widget;",
                "/** API 1 */",
                "public class Widget {",
                "    /** Shows it. */",
                "    public void show() { throw new RuntimeException(\"Stub!\"); }",
                "    /** API 3 */",
                "    public int size() { return 0; }",
                "    public static final int NONE = 0;",
                "}"), StandardCharsets.UTF_8);
        int[] members = {0};
        List<String> problems = problems(Arrays.asList(stub.toFile()), members);
        assertEquals(4, members[0]);
        assertEquals(3, problems.size(), String.join("\n", problems));
        assertTrue(problems.get(0).contains("show()"), problems.get(0));
        assertTrue(problems.get(1).contains("size() does not throw"), problems.get(1));
        assertTrue(problems.get(2).contains("NONE"), problems.get(2));
    }

    private static List<String> problems(List<File> sources, int[] members) throws IOException {
        List<String> problems = new ArrayList<String>();
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) compiler.getTask(null, files, null, Arrays.asList("--release", "8", "-proc:none"), null,
                    files.getJavaFileObjectsFromFiles(sources));
            DocTrees docs = DocTrees.instance(task);
            for (CompilationUnitTree unit : task.parse()) {
                String file = Paths.get(unit.getSourceFile().toUri()).getFileName().toString();
                new TreePathScanner<Void, Void>() {
                    @Override
                    public Void visitClass(ClassTree tree, Void unused) {
                        check(tree.getModifiers(), tree.getSimpleName().toString());
                        return super.visitClass(tree, unused);
                    }

                    @Override
                    public Void visitMethod(MethodTree tree, Void unused) {
                        String name = tree.getName().toString();
                        check(tree.getModifiers(), name + "()");
                        if (tree.getBody() != null && !tree.getBody().toString().contains(STUB_BODY)) {
                            problems.add(file + ": " + name + "() does not throw RuntimeException(\"Stub!\")");
                        }
                        // Parameters and locals are not members: not scanned.
                        return null;
                    }

                    @Override
                    public Void visitVariable(VariableTree tree, Void unused) {
                        check(tree.getModifiers(), tree.getName().toString());
                        return null;
                    }

                    @Override
                    public Void visitBlock(com.sun.source.tree.BlockTree tree, Void unused) {
                        // Static initialisers (Build.VERSION's) hold statements, no members.
                        return null;
                    }

                    private void check(ModifiersTree modifiers, String name) {
                        if (!isApi(modifiers)) return;
                        members[0]++;
                        TreePath path = getCurrentPath();
                        DocCommentTree doc = docs.getDocCommentTree(path);
                        String text = doc == null ? "" : doc.getFullBody().toString().trim();
                        if (!API_LEVEL.matcher(text).matches()) {
                            problems.add(file + ": " + name + " has no /** API N */ comment (found '" + text + "')");
                        }
                    }

                    /** Public or protected, or a member of an interface or annotation, which is public implicitly. */
                    private boolean isApi(ModifiersTree modifiers) {
                        if (modifiers.getFlags().contains(Modifier.PUBLIC) || modifiers.getFlags().contains(Modifier.PROTECTED)) {
                            return true;
                        }
                        TreePath parent = getCurrentPath().getParentPath();
                        if (parent == null || !(parent.getLeaf() instanceof ClassTree)) return false;
                        Tree.Kind kind = parent.getLeaf().getKind();
                        return kind == Tree.Kind.INTERFACE || kind == Tree.Kind.ANNOTATION_TYPE;
                    }
                }.scan(unit, null);
            }
        }
        return problems;
    }

    private static List<File> sources() throws IOException {
        String directory = System.getProperty("pushtally.stubs.dir");
        if (directory == null) throw new IllegalStateException("the system property pushtally.stubs.dir is not set: run clients/android/build");
        try (Stream<Path> paths = Files.walk(Paths.get(directory))) {
            return paths.filter(path -> path.toString().endsWith(".java")).map(Path::toFile).sorted().collect(Collectors.toList());
        }
    }
}
