package dev.sluice.flinkref;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script at semicolons that are outside string literals, quoted identifiers and comments. Each
 * piece keeps its leading comments, because a {@code -- @golden} directive lives there.
 */
final class StatementSplitter {
  private StatementSplitter() {}

  static List<String> split(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    int i = 0;
    int n = script.length();
    while (i < n) {
      char c = script.charAt(i);
      if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
        int end = script.indexOf('\n', i);
        end = end < 0 ? n : end + 1;
        cur.append(script, i, end);
        i = end;
      } else if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
        int end = script.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        cur.append(script, i, end);
        i = end;
      } else if (c == '\'' || c == '`' || c == '"') {
        // A doubled quote inside a literal is an escaped quote: the scan simply re-enters the literal.
        int end = script.indexOf(c, i + 1);
        end = end < 0 ? n : end + 1;
        cur.append(script, i, end);
        i = end;
      } else if (c == ';' && !insideStatementSet(cur)) {
        out.add(cur.toString());
        cur.setLength(0);
        i++;
      } else {
        cur.append(c);
        i++;
      }
    }
    if (!cur.toString().trim().isEmpty()) {
      out.add(cur.toString());
    }
    return out;
  }

  /** True inside EXECUTE STATEMENT SET BEGIN ... END, whose INSERTs end in semicolons of their own. */
  private static boolean insideStatementSet(StringBuilder cur) {
    String sql = stripComments(cur.toString()).trim().toUpperCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
    boolean set = sql.startsWith("EXECUTE STATEMENT SET") || sql.startsWith("EXPLAIN STATEMENT SET")
        || (sql.startsWith("EXPLAIN ") && sql.contains(" STATEMENT SET BEGIN"));
    return set && !sql.endsWith("END");
  }

  /** The statement without its whole-line {@code --} comments (Flink's parser accepts them, but the echo is cleaner). */
  static String stripComments(String statement) {
    StringBuilder sb = new StringBuilder();
    for (String line : statement.split("\n", -1)) {
      if (!line.trim().startsWith("--")) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }
}
