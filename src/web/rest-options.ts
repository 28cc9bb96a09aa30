import { ConfigOptions } from '../config/config-options.js';

/** Where the REST API and metrics are served (Flink's `RestOptions`, same keys). */
export const RestOptions = {
  PORT: ConfigOptions.key('rest.port')
    .intType()
    .defaultValue(8081)
    .withDescription('Port of the REST API and /metrics when --web is given; 0 picks a free port.'),

  BIND_ADDRESS: ConfigOptions.key('rest.bind-address')
    .stringType()
    .defaultValue('127.0.0.1')
    .withDescription('Address the REST API binds to; loopback by default so only this machine can reach it.'),
};
