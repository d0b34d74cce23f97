// Compiles Java programs and runs them one after another in this one JVM, each class's `main` called as `java <class>`
// would, with its own environment (see ../in-one-process.ts for the plan and the markers). Each group of sources is
// compiled by the JDK's compiler into a folder of its own and loaded by a class loader of its own, so that groups may
// declare the same class names. Run with the source launcher on the client's classpath, which has Gson:
// `java -cp <classpath> --add-opens java.base/java.util=ALL-UNNAMED Programs.java <plan.json>`.
import com.google.gson.Gson;
import com.google.gson.JsonObject;
import java.io.File;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public class Programs {
  static class Group {
    List<String> sources;
    String classes;
  }

  static class Program {
    String name;
    String group;
    String className;
    Map<String, String> env;
  }

  static class Plan {
    Map<String, Group> groups;
    List<Program> programs;
  }

  static final Gson gson = new Gson();

  static void marker(PrintStream stream, JsonObject event) {
    stream.println("\u001e" + gson.toJson(event));
    stream.flush();
  }

  /**
   * The map behind System.getenv(), which reads it on every call. The JDK has no way to change a running process's
   * environment; the programs read theirs from System.getenv, as a reader's would, so this writes into that map.
   */
  @SuppressWarnings("unchecked")
  static Map<String, String> environment() throws ReflectiveOperationException {
    Map<String, String> view = System.getenv();
    Field inner = view.getClass().getDeclaredField("m");
    inner.setAccessible(true);
    return (Map<String, String>) inner.get(view);
  }

  public static void main(String[] args) throws Exception {
    Plan plan = gson.fromJson(new String(java.nio.file.Files.readAllBytes(new File(args[0]).toPath()), "UTF-8"), Plan.class);
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    String classpath = System.getProperty("java.class.path");
    Map<String, ClassLoader> loaders = new HashMap<>();
    for (Map.Entry<String, Group> entry : plan.groups.entrySet()) {
      Group group = entry.getValue();
      // Compiled once: a runner started again (after a program ended the last one) finds the classes.
      File compiled = new File(group.classes, ".compiled");
      if (!compiled.exists()) {
        new File(group.classes).mkdirs();
        List<String> javacArgs = new ArrayList<>(List.of("-d", group.classes, "-cp", classpath));
        javacArgs.addAll(group.sources);
        if (compiler.run(null, null, null, javacArgs.toArray(new String[0])) != 0) {
          System.err.println("javac failed on the group " + entry.getKey());
          System.exit(2);
        }
        compiled.createNewFile();
      }
      loaders.put(entry.getKey(), new URLClassLoader(new URL[] {new File(group.classes).toURI().toURL()}, Programs.class.getClassLoader()));
    }

    Map<String, String> environment = environment();
    Map<String, String> previous = Map.of();
    for (Program program : plan.programs) {
      previous.keySet().forEach(environment::remove);
      environment.putAll(program.env);
      previous = program.env;
      JsonObject start = new JsonObject();
      start.addProperty("start", program.name);
      marker(System.err, start);
      marker(System.out, start);
      String error = "";
      try {
        Class<?> main = Class.forName(program.className, true, loaders.get(program.group));
        main.getMethod("main", String[].class).invoke(null, (Object) new String[0]);
      } catch (Throwable thrown) {
        Throwable cause = thrown instanceof InvocationTargetException ? thrown.getCause() : thrown;
        StringWriter trace = new StringWriter();
        cause.printStackTrace(new PrintWriter(trace));
        error = trace.toString();
      }
      JsonObject end = new JsonObject();
      end.addProperty("end", program.name);
      end.addProperty("ok", error.isEmpty());
      end.addProperty("error", error);
      marker(System.out, end);
    }
    // The client's connection pool keeps threads that would hold the JVM open for a while.
    System.exit(0);
  }
}
