import type { ConfigOption } from '../../config/config-option.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { CatalogFactory, CatalogFactoryContext } from '../../factories/catalog-factory.js';
import type { Catalog } from '../catalog.js';
import { PravegaCatalog } from './pravega-catalog.js';
import { PRAVEGA_CATALOG_JSON_OPTIONS, PravegaCatalogOptions as O } from './pravega-catalog-options.js';

/**
 * `CREATE CATALOG p WITH ('type' = 'pravega', 'controller-uri' = ..., 'schema-registry-uri' = ..., 'default-database' = ...)`
 * (Flink's PravegaCatalogFactory). Nothing is contacted here; the catalog connects when it is registered.
 */
export class PravegaCatalogFactory implements CatalogFactory {
  readonly factoryIdentifier = 'pravega';
  readonly description = 'Pravega scopes as databases and streams with a Pravega Schema Registry schema as tables.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [O.DEFAULT_DATABASE, O.CONTROLLER_URI, O.SCHEMA_REGISTRY_URI];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return [O.SERIALIZATION_FORMAT, O.SECURITY_AUTH_TYPE, O.SECURITY_AUTH_TOKEN, O.SECURITY_VALIDATE_HOSTNAME, O.SECURITY_TRUST_STORE, ...PRAVEGA_CATALOG_JSON_OPTIONS];
  }

  createCatalog(ctx: CatalogFactoryContext): Catalog {
    const o = ctx.options;
    const controllerUri = o.get(O.CONTROLLER_URI)!;
    if (!/^(tcp|tls|ssl):\/\/[^:/]+:\d+\/?$/i.test(controllerUri.trim())) {
      throw new ValidationError(`Option 'controller-uri' must look like tcp://host:port or tls://host:port, not '${controllerUri}'.`);
    }
    const registryUri = o.get(O.SCHEMA_REGISTRY_URI)!;
    if (!/^https?:\/\/[^/]+/.test(registryUri.trim())) {
      throw new ValidationError(`Option 'schema-registry-uri' must be an http:// or https:// URL, not '${registryUri}'.`);
    }
    const type = o.get(O.SECURITY_AUTH_TYPE);
    const token = o.get(O.SECURITY_AUTH_TOKEN);
    if ((type === undefined) !== (token === undefined)) {
      throw new ValidationError(`'security.auth-type' and 'security.auth-token' go together; only '${type === undefined ? 'security.auth-token' : 'security.auth-type'}' is set.`);
    }
    const trustStore = o.get(O.SECURITY_TRUST_STORE);
    // Table options the catalog's tables carry: security for the connector and the format, json.* for the format.
    const tableOptions: Record<string, string> = {};
    for (const [k, v] of Object.entries(o.toMap())) {
      if (k.startsWith('security.')) {
        tableOptions[k] = v;
        if (k === O.SECURITY_AUTH_TYPE.key || k === O.SECURITY_AUTH_TOKEN.key) tableOptions[`pravega-registry.${k}`] = v;
      } else if (k.startsWith('json.')) {
        tableOptions[`pravega-registry.${k.slice('json.'.length)}`] = v;
      }
    }
    return new PravegaCatalog({
      name: ctx.name,
      defaultDatabase: o.get(O.DEFAULT_DATABASE)!,
      controllerUri,
      registryUri,
      serializationFormat: o.get(O.SERIALIZATION_FORMAT),
      security: {
        ...(type === undefined || token === undefined ? {} : { auth: { type, token } }),
        ...(trustStore === undefined ? {} : { trustStore }),
        validateHostname: o.get(O.SECURITY_VALIDATE_HOSTNAME),
      },
      tableOptions,
    });
  }
}
