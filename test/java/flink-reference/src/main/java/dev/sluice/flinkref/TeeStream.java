package dev.sluice.flinkref;

import java.io.IOException;
import java.io.OutputStream;

/** Copies every byte to two streams: the console and the capture behind a {@code -- @golden} file. */
final class TeeStream extends OutputStream {
  private final OutputStream first;
  private final OutputStream second;

  TeeStream(OutputStream first, OutputStream second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public void write(int b) throws IOException {
    first.write(b);
    second.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    first.write(b, off, len);
    second.write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    first.flush();
    second.flush();
  }
}
