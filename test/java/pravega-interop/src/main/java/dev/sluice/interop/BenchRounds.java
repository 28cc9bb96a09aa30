package dev.sluice.interop;

import io.pravega.client.BatchClientFactory;
import io.pravega.client.ClientConfig;
import io.pravega.client.EventStreamClientFactory;
import io.pravega.client.admin.StreamManager;
import io.pravega.client.batch.SegmentIterator;
import io.pravega.client.batch.SegmentRange;
import io.pravega.client.stream.EventStreamWriter;
import io.pravega.client.stream.EventWriterConfig;
import io.pravega.client.stream.ScalingPolicy;
import io.pravega.client.stream.Stream;
import io.pravega.client.stream.StreamConfiguration;
import io.pravega.client.stream.StreamCut;
import io.pravega.client.stream.impl.ByteBufferSerializer;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Java column of bench/pravega-client.mjs, set up exactly like the Sluice side so the ratio means something:
 * per round a fresh stream with the same fixed segment count, one writer, routing keys k(i % 64), 1 KB payloads,
 * nothing awaited per event (writeEvent's futures), one flush at the end; then
 *   read  = the batch client reading every segment from head to tail, one thread per segment (what Sluice's bare
 *           loop does: SegmentReader per segment, concurrently, no reader group);
 *   group = a reader group with one reader (the Java counterpart of the Sluice source job: coordination included).
 * Rounds run in one JVM; the first WARMUP are discarded (JIT, connection setup), the rest give medians. Prints one
 * "round ..." line per round and a final "write=<events/s> read=<events/s> group=<events/s> write_cpu_ms=.. read_cpu_ms=..
 * group_cpu_ms=.." line (CPU of the whole JVM in each phase: JIT and GC threads included, as Node's figure includes GC).
 */
final class BenchRounds {
  private static final int KEYS = 64;
  private static final int SIZE = 1024;

  private BenchRounds() {}

  static void run(ClientConfig config, String scope, String prefix, int n, int rounds, int warmup, int segments) throws Exception {
    ByteBuffer payload = ByteBuffer.wrap(new byte[SIZE]);
    String[] keys = new String[KEYS];
    for (int k = 0; k < KEYS; k++) keys[k] = "k" + k;
    List<Double> write = new ArrayList<>();
    List<Double> read = new ArrayList<>();
    List<Double> group = new ArrayList<>();
    List<Double> writeCpu = new ArrayList<>();
    List<Double> readCpu = new ArrayList<>();
    List<Double> groupCpu = new ArrayList<>();
    try (StreamManager streams = StreamManager.create(config);
        EventStreamClientFactory clients = EventStreamClientFactory.withScope(scope, config);
        BatchClientFactory batch = BatchClientFactory.withScope(scope, config)) {
      streams.createScope(scope);
      for (int round = 0; round < warmup + rounds; round++) {
        String stream = prefix + round;
        streams.createStream(scope, stream, StreamConfiguration.builder().scalingPolicy(ScalingPolicy.fixed(segments)).build());
        // As on the Sluice side, opening the writer and listing the segments to read are outside the timed part.
        double writeMs;
        double wCpu;
        try (EventStreamWriter<ByteBuffer> w = clients.createEventWriter(stream, new ByteBufferSerializer(), EventWriterConfig.builder().build())) {
          long t0 = System.nanoTime();
          double c0 = cpuMs();
          CompletableFuture<Void> last = null;
          for (int i = 0; i < n; i++) last = w.writeEvent(keys[i % KEYS], payload.duplicate());
          w.flush();
          if (last != null) last.join();
          writeMs = (System.nanoTime() - t0) / 1e6;
          wCpu = cpuMs() - c0;
        }
        List<SegmentRange> ranges = new ArrayList<>();
        batch.getSegments(Stream.of(scope, stream), StreamCut.UNBOUNDED, StreamCut.UNBOUNDED).getIterator().forEachRemaining(ranges::add);
        long t1 = System.nanoTime();
        double c1 = cpuMs();
        long got = batchRead(batch, ranges);
        double readMs = (System.nanoTime() - t1) / 1e6;
        double rCpu = cpuMs() - c1;
        if (got != n) throw new IllegalStateException("batch read got " + got + " of " + n);
        long t2 = System.nanoTime();
        double c2 = cpuMs();
        Interop.read(config, scope, stream, n, (e) -> { });
        double groupMs = (System.nanoTime() - t2) / 1e6;
        double gCpu = cpuMs() - c2;
        System.out.printf("round %d%s write_ms=%.1f read_ms=%.1f group_ms=%.1f cpu_ms=%.0f/%.0f/%.0f%n", round, round < warmup ? " (warm-up)" : "", writeMs, readMs,
            groupMs, wCpu, rCpu, gCpu);
        if (round >= warmup) {
          write.add(writeMs);
          read.add(readMs);
          group.add(groupMs);
          writeCpu.add(wCpu);
          readCpu.add(rCpu);
          groupCpu.add(gCpu);
        }
        // The test Pravega keeps segments in its heap: drop each round's data.
        streams.sealStream(scope, stream);
        streams.deleteStream(scope, stream);
      }
    }
    System.out.printf("write=%.0f read=%.0f group=%.0f write_cpu_ms=%.0f read_cpu_ms=%.0f group_cpu_ms=%.0f%n", rate(n, median(write)), rate(n, median(read)),
        rate(n, median(group)), median(writeCpu), median(readCpu), median(groupCpu));
  }

  private static long batchRead(BatchClientFactory batch, List<SegmentRange> ranges) throws Exception {
    AtomicLong count = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (SegmentRange r : ranges) {
      Thread t = new Thread(() -> {
        long c = 0;
        try (SegmentIterator<ByteBuffer> it = batch.readSegment(r, new ByteBufferSerializer())) {
          while (it.hasNext()) {
            it.next();
            c++;
          }
        }
        count.addAndGet(c);
      });
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) t.join();
    return count.get();
  }

  private static double cpuMs() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e6;
  }

  private static double median(List<Double> xs) {
    double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a[a.length / 2];
  }

  private static double rate(int n, double ms) {
    return n / (ms / 1000);
  }
}
