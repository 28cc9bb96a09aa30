import { describe, expect, it } from 'vitest';
import { Configuration } from '../../src/config/configuration.js';
import { RestOptions } from '../../src/web/rest-options.js';

describe('where the dashboard is served', () => {
  // Tests bind port 0 (8081 may be taken on the machine), so the defaults the issue names are checked here.
  it("defaults to Flink's port 8081 on loopback only, and reads both from the configuration", () => {
    const defaults = new Configuration();
    expect(defaults.get(RestOptions.PORT)).toBe(8081);
    expect(defaults.get(RestOptions.BIND_ADDRESS)).toBe('127.0.0.1');
    const set = new Configuration().set('rest.port', '9091').set('rest.bind-address', '0.0.0.0');
    expect(set.get(RestOptions.PORT)).toBe(9091);
    expect(set.get(RestOptions.BIND_ADDRESS)).toBe('0.0.0.0');
  });
});
