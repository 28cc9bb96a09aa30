package dev.sluice.interop;

import io.pravega.client.stream.Serializer;
import io.pravega.schemaregistry.client.SchemaRegistryClientConfig;
import io.pravega.schemaregistry.contract.data.Compatibility;
import io.pravega.schemaregistry.contract.data.SerializationFormat;
import io.pravega.schemaregistry.serializer.avro.impl.AvroSerializerFactory;
import io.pravega.schemaregistry.serializer.avro.schemas.AvroSchema;
import io.pravega.schemaregistry.serializer.json.impl.JsonSerializerFactory;
import io.pravega.schemaregistry.serializer.json.schemas.JSONSchema;
import io.pravega.schemaregistry.serializer.shared.impl.SerializerConfig;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The Pravega Schema Registry's own Java serializers (schemaregistry-serializers-avro 0.5.0) on one side of Sluice's
 * interop test (test/integration/pravega-catalog/java-interop.test.ts). Events travel as hex lines on stdin and
 * stdout; carrying them through Pravega is the test's part (Sluice's Pravega client is proven against Java's in
 * test/integration/pravega/java-interop.test.ts).
 *
 *   write <registry-uri> <namespace> <group> <count>   serializes count records of app.Reading, prints one hex line each
 *   read  <registry-uri> <namespace> <group>           deserializes hex lines from stdin into the writer's schema
 *                                                      (found by each event's encoding id), prints each record as JSON
 *   writejson / readjson                               the same with the JSON serializers: POJOs of class Click, whose
 *                                                      JSON Schema Jackson generates; JSON trees back
 */
public final class RegistryInterop {
    private static final String READING = "{\"type\":\"record\",\"name\":\"Reading\",\"namespace\":\"app\",\"fields\":["
            + "{\"name\":\"sensor\",\"type\":\"string\"},"
            + "{\"name\":\"value\",\"type\":\"int\"},"
            + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}]}";

    private RegistryInterop() {
    }

    /** The record the JSON modes write: Jackson derives its JSON Schema from the public fields. */
    public static final class Click {
        public String user;
        public long n;
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        boolean json = mode.endsWith("json");
        SerializerConfig config = SerializerConfig.builder()
                .registryConfig(SchemaRegistryClientConfig.builder().schemaRegistryUri(URI.create(args[1])).build())
                .namespace(args[2])
                .groupId(args[3])
                .createGroup(json ? SerializationFormat.Json : SerializationFormat.Avro, Compatibility.allowAny(), true)
                .registerSchema(true)
                .build();
        HexFormat hex = HexFormat.of();
        if (mode.equals("write")) {
            Schema schema = new Schema.Parser().parse(READING);
            Serializer<GenericRecord> serializer = AvroSerializerFactory.serializer(config, AvroSchema.ofRecord(schema));
            int count = Integer.parseInt(args[4]);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < count; i++) {
                GenericRecord r = new GenericData.Record(schema);
                r.put("sensor", "s" + (i % 3));
                r.put("value", i);
                r.put("note", i % 2 == 0 ? null : "odd " + i);
                ByteBuffer b = serializer.serialize(r);
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                out.append(hex.formatHex(bytes)).append('\n');
            }
            System.out.print(out);
        } else if (mode.equals("read")) {
            Serializer<Object> deserializer = AvroSerializerFactory.genericDeserializer(config, null);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                Object record = deserializer.deserialize(ByteBuffer.wrap(hex.parseHex(line.trim())));
                GenericRecord r = (GenericRecord) record;
                System.out.println(r.getSchema().getFullName() + "\t" + r);
            }
        } else if (mode.equals("writejson")) {
            Serializer<Click> serializer = JsonSerializerFactory.serializer(config, JSONSchema.of(Click.class));
            int count = Integer.parseInt(args[4]);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < count; i++) {
                Click c = new Click();
                c.user = "u" + i;
                c.n = i * 10L;
                ByteBuffer b = serializer.serialize(c);
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                out.append(hex.formatHex(bytes)).append('\n');
            }
            System.out.print(out);
        } else if (mode.equals("readjson")) {
            Serializer<com.fasterxml.jackson.databind.JsonNode> deserializer = JsonSerializerFactory.genericDeserializer(config);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    System.out.println(deserializer.deserialize(ByteBuffer.wrap(hex.parseHex(line.trim()))));
                }
            }
        } else {
            throw new IllegalArgumentException("mode must be write, read, writejson or readjson, not " + mode);
        }
    }
}
