package dev.sluice.flinkref;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;

/**
 * The sink of a {@code -- @tsv-batch} group (see FlinkReference): each query of the group is INSERTed into one of
 * these, so that K queries run as one job instead of K. The rows are converted to external {@link Row}s with the
 * planner's own DataStructureConverter (the conversion TableResult.collect() applies) and kept, as printTsv's lines,
 * in a static map of this JVM: the MiniCluster runs in the same JVM, shared cluster or not.
 */
final class CollectSink implements DynamicTableSink {
  static final String IDENTIFIER = "sluice-collect";
  static final ConfigOption<String> ID = ConfigOptions.key("id").stringType().noDefaultValue();

  /** What one sink received; {@code finished} once its input ended normally (so the rows are the whole answer). */
  static final class Collected {
    final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    volatile boolean finished;
  }

  private static final Map<String, Collected> RESULTS = new ConcurrentHashMap<>();

  /** Removes and returns what the sink of {@code id} collected (empty and unfinished when it never ran). */
  static Collected take(String id) {
    Collected c = RESULTS.remove(id);
    return c == null ? new Collected() : c;
  }

  private final String id;
  private final DataType rowType;

  private CollectSink(String id, DataType rowType) {
    this.id = id;
    this.rowType = rowType;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requested) {
    // Row kinds are printed, like collect() prints them; nothing is folded here.
    return requested;
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    DataStructureConverter converter = context.createDataStructureConverter(rowType);
    String sinkId = id;
    // No parallelism of its own: the sink inherits the query's (1), so it is chained after the last operator and
    // sees rows in the order that operator emits them (an ORDER BY's order).
    return (DataStreamSinkProvider) (providerContext, stream) -> stream
        .transform("sluice-collect " + sinkId, Types.VOID, new Collector(sinkId, converter))
        .sinkTo(new DiscardingSink<>());
  }

  @Override
  public DynamicTableSink copy() {
    return new CollectSink(id, rowType);
  }

  @Override
  public String asSummaryString() {
    return IDENTIFIER;
  }

  /** Turns each RowData into printTsv's line; marks the answer complete at the end of its input. */
  static final class Collector extends AbstractStreamOperator<Void>
      implements OneInputStreamOperator<RowData, Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private final String id;
    private final DataStructureConverter converter;
    private transient Collected target;

    Collector(String id, DataStructureConverter converter) {
      this.id = id;
      this.converter = converter;
    }

    @Override
    public void open() throws Exception {
      super.open();
      converter.open(RuntimeConverter.Context.create(Collector.class.getClassLoader()));
      // A restarted attempt (there are none: no restart strategy) would start over rather than append.
      target = new Collected();
      RESULTS.put(id, target);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
      target.lines.add(FlinkReference.tsvLine((Row) converter.toExternal(element.getValue())));
    }

    @Override
    public void endInput() {
      target.finished = true;
    }
  }

  /** {@code 'connector' = 'sluice-collect', 'id' = '...'}: found by Flink through META-INF/services. */
  public static final class Factory implements DynamicTableSinkFactory {
    @Override
    public String factoryIdentifier() {
      return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
      Set<ConfigOption<?>> options = new HashSet<>();
      options.add(ID);
      return options;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
      return new HashSet<>();
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
      FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
      helper.validate();
      return new CollectSink(helper.getOptions().get(ID), context.getPhysicalRowDataType());
    }
  }
}
