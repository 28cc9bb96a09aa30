# set.q - SET/RESET and validation of session options. `SET;` lists the effective configuration: what was
# set, and the default of every session option Sluice knows; keys are never cut.

SET 'table.display.max-column-width' = '40';
[INFO] Execute statement succeeded.
!info

SET 'pipeline.name' = 'my job';
[INFO] Execute statement succeeded.
!info

SET;
+------------------------------------------------------------------+-----------------------------+
|                                                              key |                       value |
+------------------------------------------------------------------+-----------------------------+
|               execution.checkpointing.aligned-checkpoint-timeout |                        0 ms |
|        execution.checkpointing.externalized-checkpoint-retention | NO_EXTERNALIZED_CHECKPOINTS |
|               execution.checkpointing.max-concurrent-checkpoints |                           1 |
|                                execution.checkpointing.min-pause |                        0 ms |
|                                     execution.checkpointing.mode |                EXACTLY_ONCE |
|                             execution.checkpointing.num-retained |                           1 |
|                                  execution.checkpointing.timeout |                      10 min |
|             execution.checkpointing.tolerable-failed-checkpoints |                           0 |
|                        execution.checkpointing.unaligned.enabled |                       false |
|                                           execution.runtime-mode |                   streaming |
|                  execution.state-recovery.ignore-unclaimed-state |                       false |
|                                         execution.worker-threads |                        auto |
|                  materialized-table.default-freshness.continuous |                       3 min |
|                        materialized-table.default-freshness.full |                         1 h |
|              materialized-table.refresh-mode.freshness-threshold |                      30 min |
|                                         pipeline.max-parallelism |                         128 |
|                                                    pipeline.name |                      my job |
| restart-strategy.exponential-delay.attempts-before-reset-backoff |                  2147483647 |
|            restart-strategy.exponential-delay.backoff-multiplier |                         1.5 |
|               restart-strategy.exponential-delay.initial-backoff |                         1 s |
|                 restart-strategy.exponential-delay.jitter-factor |                         0.1 |
|                   restart-strategy.exponential-delay.max-backoff |                       1 min |
|       restart-strategy.exponential-delay.reset-backoff-threshold |                         1 h |
|                              restart-strategy.failure-rate.delay |                         1 s |
|              restart-strategy.failure-rate.failure-rate-interval |                       1 min |
|          restart-strategy.failure-rate.max-failures-per-interval |                           1 |
|                            restart-strategy.fixed-delay.attempts |                           1 |
|                               restart-strategy.fixed-delay.delay |                         1 s |
|                             source.reader.element.queue.capacity |                           2 |
|                       sql-client.execution.max-table-result.rows |                     1000000 |
|                                 sql-client.execution.result-mode |                       table |
|                                               sql-client.verbose |                       false |
|                                        state.backend.incremental |                       false |
|                             state.backend.lmdb.memory.cache-size |                      128 mb |
|                                               state.backend.type |                     hashmap |
|                                   table.display.max-column-width |                          40 |
|                                                   table.dml-sync |                       false |
|                              table.exec.mini-batch.allow-latency |                        0 ms |
|                                    table.exec.mini-batch.enabled |                       false |
|                                       table.exec.mini-batch.size |                          -1 |
|                                    table.exec.sink.keyed-shuffle |                        AUTO |
|                                table.exec.sink.not-null-enforcer |                       ERROR |
|                                   table.exec.source.idle-timeout |                        0 ms |
|                                             table.exec.state.ttl |                        0 ms |
|                                            table.local-time-zone |                     default |
|                               table.optimizer.agg-phase-strategy |                        AUTO |
|                             table.optimizer.reuse-source-enabled |                        true |
|                           table.optimizer.reuse-sub-plan-enabled |                        true |
+------------------------------------------------------------------+-----------------------------+
48 rows in set
!ok

RESET 'pipeline.name';
[INFO] Execute statement succeeded.
!info

SET;
+------------------------------------------------------------------+-----------------------------+
|                                                              key |                       value |
+------------------------------------------------------------------+-----------------------------+
|               execution.checkpointing.aligned-checkpoint-timeout |                        0 ms |
|        execution.checkpointing.externalized-checkpoint-retention | NO_EXTERNALIZED_CHECKPOINTS |
|               execution.checkpointing.max-concurrent-checkpoints |                           1 |
|                                execution.checkpointing.min-pause |                        0 ms |
|                                     execution.checkpointing.mode |                EXACTLY_ONCE |
|                             execution.checkpointing.num-retained |                           1 |
|                                  execution.checkpointing.timeout |                      10 min |
|             execution.checkpointing.tolerable-failed-checkpoints |                           0 |
|                        execution.checkpointing.unaligned.enabled |                       false |
|                                           execution.runtime-mode |                   streaming |
|                  execution.state-recovery.ignore-unclaimed-state |                       false |
|                                         execution.worker-threads |                        auto |
|                  materialized-table.default-freshness.continuous |                       3 min |
|                        materialized-table.default-freshness.full |                         1 h |
|              materialized-table.refresh-mode.freshness-threshold |                      30 min |
|                                         pipeline.max-parallelism |                         128 |
| restart-strategy.exponential-delay.attempts-before-reset-backoff |                  2147483647 |
|            restart-strategy.exponential-delay.backoff-multiplier |                         1.5 |
|               restart-strategy.exponential-delay.initial-backoff |                         1 s |
|                 restart-strategy.exponential-delay.jitter-factor |                         0.1 |
|                   restart-strategy.exponential-delay.max-backoff |                       1 min |
|       restart-strategy.exponential-delay.reset-backoff-threshold |                         1 h |
|                              restart-strategy.failure-rate.delay |                         1 s |
|              restart-strategy.failure-rate.failure-rate-interval |                       1 min |
|          restart-strategy.failure-rate.max-failures-per-interval |                           1 |
|                            restart-strategy.fixed-delay.attempts |                           1 |
|                               restart-strategy.fixed-delay.delay |                         1 s |
|                             source.reader.element.queue.capacity |                           2 |
|                       sql-client.execution.max-table-result.rows |                     1000000 |
|                                 sql-client.execution.result-mode |                       table |
|                                               sql-client.verbose |                       false |
|                                        state.backend.incremental |                       false |
|                             state.backend.lmdb.memory.cache-size |                      128 mb |
|                                               state.backend.type |                     hashmap |
|                                   table.display.max-column-width |                          40 |
|                                                   table.dml-sync |                       false |
|                              table.exec.mini-batch.allow-latency |                        0 ms |
|                                    table.exec.mini-batch.enabled |                       false |
|                                       table.exec.mini-batch.size |                          -1 |
|                                    table.exec.sink.keyed-shuffle |                        AUTO |
|                                table.exec.sink.not-null-enforcer |                       ERROR |
|                                   table.exec.source.idle-timeout |                        0 ms |
|                                             table.exec.state.ttl |                        0 ms |
|                                            table.local-time-zone |                     default |
|                               table.optimizer.agg-phase-strategy |                        AUTO |
|                             table.optimizer.reuse-source-enabled |                        true |
|                           table.optimizer.reuse-sub-plan-enabled |                        true |
+------------------------------------------------------------------+-----------------------------+
47 rows in set
!ok

SET 'parallelism.default' = 'abc';
[ERROR] Could not execute SQL statement. Reason:
ValidationError: Invalid value for option 'parallelism.default': 'abc'. Expected an integer between -2147483648 and 2147483647.
!error

SET 'execution.runtime-mode' = 'batchy';
[ERROR] Could not execute SQL statement. Reason:
ValidationError: Invalid value for option 'execution.runtime-mode': 'batchy'. Expected one of [streaming, batch].
!error

SET 'execution.checkpointing.interval' = 'soon';
[ERROR] Could not execute SQL statement. Reason:
ValidationError: Invalid value for option 'execution.checkpointing.interval': 'soon'. Expected a duration such as '10 s', '5 min', '500 ms', '1 h' or '2 d' (a bare number is milliseconds).
!error

RESET;
[INFO] Execute statement succeeded.
!info

SET;
+------------------------------------------------------------------+-----------------------------+
|                                                              key |                       value |
+------------------------------------------------------------------+-----------------------------+
|               execution.checkpointing.aligned-checkpoint-timeout |                        0 ms |
|        execution.checkpointing.externalized-checkpoint-retention | NO_EXTERNALIZED_CHECKPOINTS |
|               execution.checkpointing.max-concurrent-checkpoints |                           1 |
|                                execution.checkpointing.min-pause |                        0 ms |
|                                     execution.checkpointing.mode |                EXACTLY_ONCE |
|                             execution.checkpointing.num-retained |                           1 |
|                                  execution.checkpointing.timeout |                      10 min |
|             execution.checkpointing.tolerable-failed-checkpoints |                           0 |
|                        execution.checkpointing.unaligned.enabled |                       false |
|                                           execution.runtime-mode |                   streaming |
|                  execution.state-recovery.ignore-unclaimed-state |                       false |
|                                         execution.worker-threads |                        auto |
|                  materialized-table.default-freshness.continuous |                       3 min |
|                        materialized-table.default-freshness.full |                         1 h |
|              materialized-table.refresh-mode.freshness-threshold |                      30 min |
|                                         pipeline.max-parallelism |                         128 |
| restart-strategy.exponential-delay.attempts-before-reset-backoff |                  2147483647 |
|            restart-strategy.exponential-delay.backoff-multiplier |                         1.5 |
|               restart-strategy.exponential-delay.initial-backoff |                         1 s |
|                 restart-strategy.exponential-delay.jitter-factor |                         0.1 |
|                   restart-strategy.exponential-delay.max-backoff |                       1 min |
|       restart-strategy.exponential-delay.reset-backoff-threshold |                         1 h |
|                              restart-strategy.failure-rate.delay |                         1 s |
|              restart-strategy.failure-rate.failure-rate-interval |                       1 min |
|          restart-strategy.failure-rate.max-failures-per-interval |                           1 |
|                            restart-strategy.fixed-delay.attempts |                           1 |
|                               restart-strategy.fixed-delay.delay |                         1 s |
|                             source.reader.element.queue.capacity |                           2 |
|                       sql-client.execution.max-table-result.rows |                     1000000 |
|                                 sql-client.execution.result-mode |                       table |
|                                               sql-client.verbose |                       false |
|                                        state.backend.incremental |                       false |
|                             state.backend.lmdb.memory.cache-size |                      128 mb |
|                                               state.backend.type |                     hashmap |
|                                   table.display.max-column-width |                          30 |
|                                                   table.dml-sync |                       false |
|                              table.exec.mini-batch.allow-latency |                        0 ms |
|                                    table.exec.mini-batch.enabled |                       false |
|                                       table.exec.mini-batch.size |                          -1 |
|                                    table.exec.sink.keyed-shuffle |                        AUTO |
|                                table.exec.sink.not-null-enforcer |                       ERROR |
|                                   table.exec.source.idle-timeout |                        0 ms |
|                                             table.exec.state.ttl |                        0 ms |
|                                            table.local-time-zone |                     default |
|                               table.optimizer.agg-phase-strategy |                        AUTO |
|                             table.optimizer.reuse-source-enabled |                        true |
|                           table.optimizer.reuse-sub-plan-enabled |                        true |
+------------------------------------------------------------------+-----------------------------+
47 rows in set
!ok

