package dev.sluice.interop;

import io.pravega.client.ClientConfig;
import io.pravega.client.EventStreamClientFactory;
import io.pravega.client.admin.ReaderGroupManager;
import io.pravega.client.stream.EventRead;
import io.pravega.client.stream.EventStreamReader;
import io.pravega.client.stream.EventStreamWriter;
import io.pravega.client.stream.EventWriterConfig;
import io.pravega.client.stream.ReaderConfig;
import io.pravega.client.stream.ReaderGroupConfig;
import io.pravega.client.stream.Stream;
import io.pravega.client.stream.impl.ByteBufferSerializer;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The Java side of Sluice's Pravega interop test, on the official pravega-client 0.13.0.
 *   write URI SCOPE STREAM N KEYS    writes N events "key:seq" (key = k(seq % KEYS)) routed by key
 *   read URI SCOPE STREAM N          reads N events with a reader group; prints "payload<TAB>base64(EventPointer)"
 *   bench URI SCOPE STREAM N         writes then reads N 1 KB events; prints "write=<events/s> read=<events/s>"
 *   rounds URI SCOPE PREFIX N ROUNDS WARMUP [SEGMENTS]
 *                                    bench/pravega-client.mjs's Java column (see BenchRounds)
 * The scope and stream must exist (rounds creates and deletes its own streams PREFIX0, PREFIX1, ...).
 */
public final class Interop {
  public static void main(String[] args) throws Exception {
    ClientConfig config = ClientConfig.builder().controllerURI(URI.create(args[1])).build();
    String scope = args[2];
    String stream = args[3];
    int n = Integer.parseInt(args[4]);
    switch (args[0]) {
      case "write": {
        int keys = Integer.parseInt(args[5]);
        try (EventStreamClientFactory f = EventStreamClientFactory.withScope(scope, config);
            EventStreamWriter<ByteBuffer> w = f.createEventWriter(stream, new ByteBufferSerializer(), EventWriterConfig.builder().build())) {
          for (int i = 0; i < n; i++) {
            String key = "k" + (i % keys);
            w.writeEvent(key, ByteBuffer.wrap((key + ":" + i).getBytes(StandardCharsets.UTF_8)));
          }
          w.flush();
        }
        break;
      }
      case "read": {
        StringBuilder out = new StringBuilder();
        read(config, scope, stream, n, (e) -> {
          byte[] b = new byte[e.getEvent().remaining()];
          e.getEvent().get(b);
          ByteBuffer pointer = e.getEventPointer().toBytes();
          byte[] p = new byte[pointer.remaining()];
          pointer.get(p);
          out.append(new String(b, StandardCharsets.UTF_8)).append('\t').append(Base64.getEncoder().encodeToString(p)).append('\n');
        });
        System.out.print(out);
        break;
      }
      case "bench": {
        ByteBuffer payload = ByteBuffer.wrap(new byte[1024]);
        long t0 = System.nanoTime();
        try (EventStreamClientFactory f = EventStreamClientFactory.withScope(scope, config);
            EventStreamWriter<ByteBuffer> w = f.createEventWriter(stream, new ByteBufferSerializer(), EventWriterConfig.builder().build())) {
          CompletableFuture<Void> last = null;
          for (int i = 0; i < n; i++) last = w.writeEvent("k" + (i % 64), payload.duplicate());
          w.flush();
          if (last != null) last.join();
        }
        double writeS = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        read(config, scope, stream, n, (e) -> { });
        double readS = (System.nanoTime() - t1) / 1e9;
        System.out.printf("write=%.0f read=%.0f%n", n / writeS, n / readS);
        break;
      }
      case "rounds":
        BenchRounds.run(config, scope, stream, n, Integer.parseInt(args[5]), Integer.parseInt(args[6]), args.length > 7 ? Integer.parseInt(args[7]) : 2);
        break;
      default:
        throw new IllegalArgumentException("unknown mode " + args[0]);
    }
    System.exit(0);
  }

  static void read(ClientConfig config, String scope, String stream, int n, java.util.function.Consumer<EventRead<ByteBuffer>> each) throws Exception {
    String group = "interop" + UUID.randomUUID().toString().replace("-", "");
    try (ReaderGroupManager m = ReaderGroupManager.withScope(scope, config)) {
      m.createReaderGroup(group, ReaderGroupConfig.builder().stream(Stream.of(scope, stream)).disableAutomaticCheckpoints().build());
      try (EventStreamClientFactory f = EventStreamClientFactory.withScope(scope, config);
          EventStreamReader<ByteBuffer> r = f.createReader("r1", group, new ByteBufferSerializer(), ReaderConfig.builder().build())) {
        int got = 0;
        long deadline = System.currentTimeMillis() + 60_000;
        while (got < n && System.currentTimeMillis() < deadline) {
          EventRead<ByteBuffer> e = r.readNextEvent(1000);
          if (e.getEvent() == null) continue;
          each.accept(e);
          got++;
        }
        if (got < n) throw new IllegalStateException("read " + got + " of " + n + " events");
      }
      m.deleteReaderGroup(group);
    }
  }
}
