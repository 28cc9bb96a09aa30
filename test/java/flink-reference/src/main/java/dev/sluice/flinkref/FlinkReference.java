package dev.sluice.flinkref;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs SQL scripts on a local Apache Flink TableEnvironment so Sluice's goldens come from the real engine.
 *
 * <p>Usage: {@code FlinkReference [--out-dir DIR] [--shared-cluster] script.sql...} (normally through
 * scripts/flink-reference.sh). By default each job runs on a MiniCluster of its own, as a local TableEnvironment does
 * (bench/flink-baseline.mjs times that); {@code --shared-cluster} starts one MiniCluster for the whole run and submits
 * every job to it through its REST endpoint, which saves the cluster start per query (scripts/differential.mjs).
 *
 * <p>Output, one block per statement, on stdout:
 * <pre>
 * #### STATEMENT n
 * the statement text
 * #### OUTPUT
 * EXPLAIN text, TableResult.print() tableau, or what a `print` sink wrote while an INSERT ran
 * #### ELAPSED ms (job ms) wall time of the statement (parse, plan, run); for an INSERT, "job" is the part after
 *                          executeSql returned, i.e. result.await() (no JVM start-up, no planning): bench/flink-baseline.mjs
 * #### END n OK          (or: #### END n ERROR &lt;exception class&gt;: &lt;message&gt;)
 * </pre>
 * A comment line {@code -- @golden some/file.txt} before a statement also writes that statement's OUTPUT to
 * DIR/some/file.txt (needs --out-dir); {@code -- @tsv} prints a query's rows unabridged (see printTsv), and {@code ${OUT_DIR}} in a script is replaced by DIR's absolute path. Everything the JVM prints goes through one stdout, so a `print` sink's rows
 * land inside the OUTPUT of the INSERT that produced them (INSERTs are awaited before the next statement).
 *
 * <p>{@code -- @tsv-batch G} is {@code -- @tsv} for a query that may share one job with the other queries of group G
 * (scripts/differential.mjs): planning, compiling and running one job per generated query is what made Flink ~100x
 * slower than Sluice there. When the first query of G is reached, every query of G is INSERTed into a
 * {@link CollectSink} of its own and the lot runs as one StatementSet; each block is then printed at its own place,
 * byte for byte as {@code -- @tsv} prints it (ELAPSED is the group's time shared out). A query that fails to parse or
 * validate, and every query of a job that fails (plan, codegen or run time), except those whose sink had already seen
 * the end of its input, is retried in halves, down to running alone exactly as {@code -- @tsv} runs it: so an error
 * is the text the query gives alone.
 *
 * <p>SET 'k' = 'v' is applied by this runner: the TableEnvironment is created lazily at the first other statement,
 * and a later SET of execution.runtime-mode recreates it, replaying the CREATE statements run so far, because the
 * runtime mode of a TableEnvironment is fixed at creation.
 */
public final class FlinkReference {
  private static final Pattern SET = Pattern.compile(
      "(?is)^SET\\s+'([^']+)'\\s*=\\s*'((?:[^']|'')*)'$");
  private static final Pattern GOLDEN = Pattern.compile("(?m)^\\s*--\\s*@golden\\s+(\\S+)\\s*$");
  private static final Pattern TSV = Pattern.compile("(?m)^\\s*--\\s*@tsv\\s*$");
  private static final Pattern TSV_BATCH = Pattern.compile("(?m)^\\s*--\\s*@tsv-batch\\s+(\\S+)\\s*$");
  private static final String RUNTIME_MODE = "execution.runtime-mode";

  /** Settings every runner starts with besides the defaults: the shared cluster's address (see main). */
  private static final Map<String, String> CLUSTER = new TreeMap<>();
  /** The --shared-cluster MiniCluster, or null when each job starts its own. */
  private static MiniCluster shared;
  /** Jobs found still running before a new one was submitted, and cancelled (printed on stderr at the end). */
  private static long reapedJobs;
  /** Times the shared cluster was replaced because it had no resources left (see lostResources). */
  private static long clusterRestarts;

  private final Map<String, String> settings = new TreeMap<>();
  private final List<String> ddl = new ArrayList<>();
  private final Path outDir;
  private final PrintStream out;
  private TableEnvironment env;
  /** Nanoseconds the last INSERT spent in result.await(), or -1 (see the ELAPSED line). */
  private long jobNanos = -1;
  /** Set while a batch job is run again on a fresh cluster, so that it is not retried twice. */
  private boolean retryingJob;
  /** Answers of {@code -- @tsv-batch} queries already run with their group, by statement number. */
  private final Map<Integer, Outcome> batched = new HashMap<>();
  /** Names the collecting sinks uniquely within this JVM. */
  private static long sinkIds;
  /** Jobs run for batch groups, and how many of them failed (then split): printed on stderr at the end. */
  private static long batchJobs;
  private static long batchJobFailures;
  private static final boolean VERBOSE = System.getenv("FLINK_REFERENCE_VERBOSE") != null;

  /** One statement's OUTPUT text, END status and wall time, when it was run apart from its printing. */
  private static final class Outcome {
    final String output;
    final String status;
    final long nanos;

    Outcome(String output, String status, long nanos) {
      this.output = output;
      this.status = status;
      this.nanos = nanos;
    }
  }

  private FlinkReference(Path outDir, PrintStream out) {
    this.outDir = outDir;
    this.out = out;
    // Deterministic defaults: one task (one part file, no "n>" prefixes on print sinks), UTC for TIMESTAMP_LTZ.
    settings.put("parallelism.default", "1");
    settings.put("table.local-time-zone", "UTC");
    settings.put(RUNTIME_MODE, "batch");
    settings.putAll(CLUSTER);
  }

  public static void main(String[] args) throws Exception {
    Path outDir = null;
    boolean sharedCluster = false;
    List<Path> scripts = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--out-dir")) {
        outDir = Paths.get(args[++i]);
      } else if (args[i].equals("--shared-cluster")) {
        sharedCluster = true;
      } else {
        scripts.add(Paths.get(args[i]));
      }
    }
    if (scripts.isEmpty()) {
      System.err.println("usage: FlinkReference [--out-dir DIR] [--shared-cluster] script.sql...");
      System.exit(2);
    }
    PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(stdout);
    if (sharedCluster) {
      startSharedCluster();
    }
    int failures = 0;
    for (Path script : scripts) {
      FlinkReference runner = new FlinkReference(outDir, stdout);
      String text = Files.readString(script, StandardCharsets.UTF_8);
      if (outDir != null) {
        // Lets a script put filesystem sinks under the output folder: 'path' = '${OUT_DIR}/json-default'.
        text = text.replace("${OUT_DIR}", outDir.toAbsolutePath().toString());
      }
      failures += runner.run(text);
    }
    stdout.flush();
    if (clusterRestarts > 0) {
      System.err.println("flink-reference: the shared cluster was restarted " + clusterRestarts
          + " times after it ran out of resources (left running)");
    }
    if (reapedJobs > 0) {
      System.err.println("flink-reference: cancelled " + reapedJobs + " jobs left running by earlier statements");
    }
    if (batchJobs > 0) {
      System.err.println("flink-reference: " + batchJobs + " batch jobs, " + batchJobFailures
          + " of them failed and were split");
    }
    // The mini cluster leaves non-daemon threads behind; exit explicitly.
    System.exit(failures == 0 ? 0 : 1);
  }

  private int run(String script) throws IOException {
    int failures = 0;
    int n = 0;
    List<String> raws = StatementSplitter.split(script);
    // Statement numbers (1-based, as printed) of each -- @tsv-batch group, in script order.
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    for (int i = 0; i < raws.size(); i++) {
      Matcher m = TSV_BATCH.matcher(raws.get(i));
      if (m.find()) {
        groups.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(i + 1);
      }
    }
    for (String raw : raws) {
      n++;
      Matcher golden = GOLDEN.matcher(raw);
      String goldenFile = golden.find() ? golden.group(1) : null;
      boolean tsv = TSV.matcher(raw).find();
      Matcher batch = TSV_BATCH.matcher(raw);
      String group = batch.find() ? batch.group(1) : null;
      String sql = StatementSplitter.stripComments(raw).trim();
      if (sql.isEmpty()) {
        continue;
      }
      out.println("#### STATEMENT " + n);
      out.println(sql);
      out.println("#### OUTPUT");
      out.flush();
      if (group != null) {
        if (!batched.containsKey(n)) {
          runGroup(groups.get(group), raws);
        }
        Outcome o = batched.remove(n);
        out.print(o.output);
        out.println("#### ELAPSED " + millis(o.nanos));
        out.println("#### END " + n + " " + o.status);
        out.flush();
        if (!o.status.equals("OK")) {
          failures++;
        }
        if (goldenFile != null && o.status.equals("OK")) {
          writeGolden(goldenFile, o.output.getBytes(StandardCharsets.UTF_8));
        }
        continue;
      }
      java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
      PrintStream tee = new PrintStream(new TeeStream(out, captured), true, StandardCharsets.UTF_8);
      System.setOut(tee);
      String status;
      jobNanos = -1;
      long started = System.nanoTime();
      try {
        executeRecovering(sql, tsv, tee);
        status = "OK";
      } catch (Throwable t) {
        status = errorStatus(t);
        failures++;
      } finally {
        tee.flush();
        System.setOut(out);
      }
      out.println("#### ELAPSED " + millis(System.nanoTime() - started)
          + (jobNanos >= 0 ? " (job " + millis(jobNanos) + ")" : ""));
      out.println("#### END " + n + " " + status);
      out.flush();
      // A failed statement leaves no golden behind, so a stale or partial file cannot pass for Flink's answer.
      if (goldenFile != null && status.equals("OK")) {
        writeGolden(goldenFile, captured.toByteArray());
      }
    }
    return failures;
  }

  private void writeGolden(String goldenFile, byte[] bytes) throws IOException {
    if (outDir == null) {
      throw new IllegalStateException("-- @golden " + goldenFile + " needs --out-dir");
    }
    Path target = outDir.resolve(goldenFile);
    Files.createDirectories(target.toAbsolutePath().getParent());
    Files.write(target, bytes);
  }

  private static String errorStatus(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return "ERROR " + t.getClass().getName() + ": " + firstLine(t.getMessage())
        + (root != t ? " | caused by " + root.getClass().getName() + ": " + firstLine(root.getMessage()) : "");
  }

  /** Runs one -- @tsv-batch group (statement numbers {@code members}) and files each answer in {@code batched}. */
  private void runGroup(List<Integer> members, List<String> raws) {
    List<Integer> planned = new ArrayList<>();
    List<Table> tables = new ArrayList<>();
    for (int m : members) {
      String sql = StatementSplitter.stripComments(raws.get(m - 1)).trim();
      try {
        // Parses and validates only (no optimisation, no job): a refused query is answered alone, with its own text.
        tables.add(environment().sqlQuery(sql));
        planned.add(m);
      } catch (Throwable t) {
        batched.put(m, runAlone(sql));
      }
    }
    runJob(planned, tables, raws);
  }

  /**
   * The queries {@code members} (with their Tables) as one StatementSet job. If it fails, the queries whose sink saw
   * the end of its input keep their rows; the others are split in two and retried, and a query left alone runs as
   * {@code -- @tsv} runs it.
   */
  private void runJob(List<Integer> members, List<Table> tables, List<String> raws) {
    if (members.isEmpty()) {
      return;
    }
    if (members.size() == 1) {
      batched.put(members.get(0), runAlone(StatementSplitter.stripComments(raws.get(members.get(0) - 1)).trim()));
      return;
    }
    long started = System.nanoTime();
    String[] ids = new String[members.size()];
    Throwable failure = null;
    // Code that fails to compile is printed by Flink to stdout; it would land in the printed block.
    PrintStream quiet = new PrintStream(java.io.OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    System.setOut(quiet);
    try {
      reapLeftoverJobs();
      StatementSet set = environment().createStatementSet();
      for (int i = 0; i < ids.length; i++) {
        ids[i] = "q" + (++sinkIds);
        set.add(tables.get(i).insertInto(
            TableDescriptor.forConnector(CollectSink.IDENTIFIER).option(CollectSink.ID, ids[i]).build()));
      }
      batchJobs++;
      set.execute().await();
    } catch (Throwable t) {
      failure = t;
    } finally {
      System.setOut(out);
    }
    long each = (System.nanoTime() - started) / members.size();
    List<Integer> retryMembers = new ArrayList<>();
    List<Table> retryTables = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      CollectSink.Collected c = ids[i] == null ? new CollectSink.Collected() : CollectSink.take(ids[i]);
      if (c.finished) {
        StringBuilder text = new StringBuilder();
        synchronized (c.lines) {
          for (String line : c.lines) {
            text.append(line).append(System.lineSeparator());
          }
        }
        batched.put(members.get(i), new Outcome(text.toString(), "OK", each));
      } else if (failure == null) {
        throw new IllegalStateException("the batch job ended but the sink of statement " + members.get(i)
            + " never saw the end of its input");
      } else {
        retryMembers.add(members.get(i));
        retryTables.add(tables.get(i));
      }
    }
    if (VERBOSE) {
      System.err.println("flink-reference: batch job of " + members.size() + " queries, "
          + (failure == null ? "ok" : (retryMembers.size() + " to retry")) + ", " + millis(each * members.size()) + " ms");
    }
    if (failure != null && !retryingJob && lostResources(failure) && retryMembers.size() == members.size()
        && restartSharedCluster()) {
      // Nothing ran: the same job once more, on a fresh cluster (its Tables planned again against it).
      List<Table> replanned = new ArrayList<>();
      for (int m : members) {
        replanned.add(environment().sqlQuery(StatementSplitter.stripComments(raws.get(m - 1)).trim()));
      }
      retryingJob = true;
      try {
        runJob(members, replanned, raws);
      } finally {
        retryingJob = false;
      }
      return;
    }
    if (failure != null) {
      batchJobFailures++;
      int half = retryMembers.size() / 2;
      runJob(retryMembers.subList(0, half), retryTables.subList(0, half), raws);
      runJob(retryMembers.subList(half, retryMembers.size()), retryTables.subList(half, retryTables.size()), raws);
    }
  }

  /** One query as {@code -- @tsv} runs it, its output captured instead of printed. */
  private Outcome runAlone(String sql) {
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    PrintStream sink = new PrintStream(captured, true, StandardCharsets.UTF_8);
    System.setOut(sink);
    long started = System.nanoTime();
    String status;
    try {
      executeRecovering(sql, true, sink);
      status = "OK";
    } catch (Throwable t) {
      status = errorStatus(t);
    } finally {
      sink.flush();
      System.setOut(out);
    }
    return new Outcome(captured.toString(StandardCharsets.UTF_8), status, System.nanoTime() - started);
  }

  /** {@link #execute}, run once more on a fresh shared cluster when the cluster had no resources for it. */
  private void executeRecovering(String sql, boolean tsv, PrintStream sink) throws Exception {
    try {
      execute(sql, tsv, sink);
    } catch (Throwable t) {
      if (!lostResources(t) || !restartSharedCluster()) {
        throw t;
      }
      execute(sql, tsv, sink);
    }
  }

  private void execute(String sql, boolean tsv, PrintStream sink) throws Exception {
    Matcher set = SET.matcher(sql);
    if (set.matches()) {
      String key = set.group(1);
      String value = set.group(2).replace("''", "'");
      String before = settings.put(key, value);
      if (env != null) {
        if (key.equals(RUNTIME_MODE) && !value.equalsIgnoreCase(before)) {
          env = null; // recreated, with the DDL replayed, at the next statement
        } else {
          env.getConfig().getConfiguration().setString(key, value);
        }
      }
      return;
    }
    TableEnvironment tEnv = environment();
    reapLeftoverJobs();
    TableResult result = tEnv.executeSql(sql);
    String head = sql.toUpperCase(Locale.ROOT);
    if (head.startsWith("CREATE") || head.startsWith("DROP") || head.startsWith("ALTER")) {
      ddl.add(sql);
    }
    if (head.startsWith("EXPLAIN")) {
      // The plan is one STRING row; print it raw, not inside a table.
      try (CloseableIterator<Row> rows = result.collect()) {
        while (rows.hasNext()) {
          sink.print(String.valueOf(rows.next().getField(0)));
        }
      }
      sink.println();
    } else if (head.startsWith("INSERT") || head.startsWith("EXECUTE")) {
      // The job id in the result is random; only completion matters (print sinks write to stdout meanwhile).
      long submitted = System.nanoTime();
      result.await();
      jobNanos = System.nanoTime() - submitted;
    } else if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT && tsv) {
      printTsv(result, sink);
    } else if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
      result.print();
    }
  }

  /** Starts the --shared-cluster MiniCluster on loopback (REST on a free port) and points new environments at it. */
  private static void startSharedCluster() throws Exception {
    Configuration conf = new Configuration();
    conf.setString("rest.bind-port", "0");
    conf.setString("rest.address", "127.0.0.1");
    conf.setString("rest.bind-address", "127.0.0.1");
    MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
        .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(4).build());
    cluster.start();
    shared = cluster;
    java.net.URI rest = cluster.getRestAddress().get();
    CLUSTER.put("execution.target", "remote");
    CLUSTER.put("rest.address", rest.getHost());
    CLUSTER.put("rest.port", String.valueOf(rest.getPort()));
  }

  /**
   * Whether {@code t} says the shared cluster has no task slot to give: after some failing jobs (one whose collect
   * iterator failed and was closed, in streaming mode) a MiniCluster of Flink 2.3 answered every later job at once
   * with NoResourceAvailableException, thousands of queries in a row. That is the runner's failure, not the query's.
   */
  private static boolean lostResources(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c.getClass().getName().endsWith("NoResourceAvailableException")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Replaces the shared cluster with a fresh one (this runner's environment is rebuilt against it at its next
   * statement, the DDL replayed). Returns false when there is no shared cluster to replace.
   */
  private boolean restartSharedCluster() {
    if (shared == null) {
      return false;
    }
    clusterRestarts++;
    System.err.println("flink-reference: the shared cluster has no resources left; starting a fresh one (restart "
        + clusterRestarts + ")");
    try {
      shared.closeAsync().get(60, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      // A cluster that does not close in time is left behind: its threads die with the JVM.
    }
    try {
      startSharedCluster();
    } catch (Exception e) {
      throw new IllegalStateException("could not start a fresh shared cluster", e);
    }
    settings.putAll(CLUSTER);
    env = null;
    return true;
  }

  /**
   * On the shared cluster, cancels every job that is not yet in a terminal state before the next one is submitted.
   * A job whose client gave up on it (a failed await, an iterator closed early) may still hold its slot while it
   * winds down; thousands of queries later the slots run out and every query fails with NoResourceAvailableException,
   * which is the runner's failure, not the query's. Waits (up to 30 s) until the cancelled jobs are gone.
   */
  private static void reapLeftoverJobs() throws Exception {
    if (shared == null) {
      return;
    }
    long deadline = System.nanoTime() + 30_000_000_000L;
    boolean cancelled = false;
    while (true) {
      List<JobID> running = new ArrayList<>();
      for (JobStatusMessage job : shared.listJobs().get()) {
        if (!job.getJobState().isGloballyTerminalState()) {
          running.add(job.getJobId());
        }
      }
      if (running.isEmpty() || System.nanoTime() > deadline) {
        return;
      }
      if (!cancelled) {
        for (JobID id : running) {
          reapedJobs++;
          if (VERBOSE) {
            System.err.println("flink-reference: cancelling job " + id + " left running");
          }
          try {
            shared.cancelJob(id).get();
          } catch (Exception e) {
            // Already finishing: the poll below sees it end.
          }
        }
        cancelled = true;
      }
      Thread.sleep(20);
    }
  }

  private TableEnvironment environment() {
    if (env == null) {
      Configuration conf = new Configuration();
      settings.forEach(conf::setString);
      boolean streaming = settings.get(RUNTIME_MODE).equalsIgnoreCase(RuntimeExecutionMode.STREAMING.name());
      EnvironmentSettings es = (streaming ? EnvironmentSettings.newInstance().inStreamingMode()
          : EnvironmentSettings.newInstance().inBatchMode()).withConfiguration(conf).build();
      env = TableEnvironment.create(es);
      for (String stmt : ddl) {
        env.executeSql(stmt);
      }
    }
    return env;
  }

  /**
   * {@code -- @tsv}: each row as its kind and fields' toString() (arrays by their elements) separated by tabs, with tab, newline, backslash
   * escaped as \\t \\n \\\\ and NULL as \\N: unlike the tableau, nothing is cut at 30 characters or ambiguous.
   */
  private static void printTsv(TableResult result, PrintStream sink) throws Exception {
    try (CloseableIterator<Row> rows = result.collect()) {
      while (rows.hasNext()) {
        sink.println(tsvLine(rows.next()));
      }
    }
  }

  /** One row as printTsv prints it (also CollectSink's, so batched answers print the same). */
  static String tsvLine(Row row) {
    StringBuilder line = new StringBuilder(row.getKind().shortString());
    for (int i = 0; i < row.getArity(); i++) {
      Object v = row.getField(i);
      // Arrays (ARRAY columns are Object[], BYTES byte[]) by their elements, like Row.toString does inside rows.
      String text = org.apache.flink.util.StringUtils.arrayAwareToString(v);
      line.append('\t').append(v == null ? "\\N"
          : text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n"));
    }
    return line.toString();
  }

  private static String millis(long nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
