// A Java UDF for the --endpoint tests, compiled when the test runs: javac against the Flink jars scripts/flink.sh
// cached (flink-table-common holds ScalarFunction), so the class matches the cluster's Flink version.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** `com.example.Shout`: upper-cases a string and adds '!', multiplies a BIGINT by 100. */
export const SHOUT_CLASS = 'com.example.Shout';

const SHOUT_SOURCE = `package com.example;

import org.apache.flink.table.functions.ScalarFunction;

public class Shout extends ScalarFunction {
  public String eval(String s) {
    return s == null ? null : s.toUpperCase() + "!";
  }

  public Long eval(Long n) {
    return n == null ? null : n * 100;
  }
}
`;

/** flink-table-common of the Flink scripts/flink.sh runs, from its jar cache ($SLUICE_CACHE/flink/libs-<version>). */
function flinkTableCommon(): string {
  const cache = join(process.env.SLUICE_CACHE ?? join(REPO, '.cache'), 'flink');
  const version = process.env.FLINK_VERSION ?? '2.2.1';
  const jar = join(cache, `libs-${version}`, `flink-table-common-${version}.jar`);
  if (existsSync(jar)) return jar;
  const found = existsSync(cache) ? readdirSync(cache).filter((d) => d.startsWith('libs-')) : [];
  throw new Error(`${jar} is missing (libs in ${cache}: ${found.join(', ') || 'none'}); scripts/flink.sh fetch puts it there.`);
}

/** Compiles com.example.Shout into `dir` and returns the path of its jar (javac and jar of the JDK on PATH). */
export function buildShoutJar(dir: string): string {
  const src = join(dir, 'src', 'com', 'example');
  const classes = join(dir, 'classes');
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'Shout.java'), SHOUT_SOURCE);
  execFileSync('javac', ['-d', classes, '-cp', flinkTableCommon(), join(src, 'Shout.java')], { stdio: 'pipe' });
  const jar = join(dir, 'shout.jar');
  execFileSync('jar', ['cf', jar, '-C', classes, '.'], { stdio: 'pipe' });
  return jar;
}
