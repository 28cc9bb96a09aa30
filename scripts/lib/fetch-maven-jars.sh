#!/usr/bin/env bash
# Shared helper: fetch a Maven artifact and its runtime dependencies into a folder of plain jars.
#
# Usage: fetch-maven-jars.sh <dest-dir> <groupId:artifactId:version>...
#
# Why a generated pom + dependency:copy-dependencies instead of dependency:get: copy-dependencies
# resolves the whole runtime closure (with Maven's own conflict resolution) and lays the jars flat in
# one folder, which is what `java -cp 'dir/*'` needs. A `.complete` marker is written last so an
# interrupted download is redone on the next call instead of leaving a half-filled classpath.
set -euo pipefail

dest="${1:?usage: fetch-maven-jars.sh dest-dir group:artifact:version...}"
shift
if [[ $# -eq 0 ]]; then
  echo "fetch-maven-jars: no artifacts given" >&2
  exit 2
fi

if [[ -f "$dest/.complete" ]]; then
  exit 0
fi

deps=""
for coords in "$@"; do
  IFS=: read -r group artifact version <<<"$coords"
  if [[ -z "${group}" || -z "${artifact}" || -z "${version}" ]]; then
    echo "fetch-maven-jars: expected group:artifact:version, got '$coords'" >&2
    exit 2
  fi
  deps+="    <dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>${version}</version></dependency>
"
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>sluice.tools</groupId>
  <artifactId>fetch-jars</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
${deps}  </dependencies>
</project>
POM

rm -rf "$dest"
mkdir -p "$dest"
# -B: no colours/progress in CI logs; -q keeps the log short; errors still print.
mvn -B -q -Dstyle.color=never -f "$work/pom.xml" dependency:copy-dependencies \
  -DincludeScope=runtime -DoutputDirectory="$dest" >&2
touch "$dest/.complete"
