// Keeps producing JSON records {id, payload} with increasing ids into a topic until stopped.
import { Partitioners, type Kafka } from 'kafkajs';

export class InputFeeder {
  sent = 0;
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly kafka: Kafka,
    private readonly topic: string,
    private readonly perTick = 50,
    private readonly tickMs = 50,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Ids 0 .. sent-1, every one of which the broker acknowledged. */
  ids(): number[] {
    return Array.from({ length: this.sent }, (_, i) => i);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    const producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
    await producer.connect();
    try {
      while (!this.stopping) {
        const first = this.sent;
        const messages = Array.from({ length: this.perTick }, (_, i) => ({
          key: String(first + i),
          value: JSON.stringify({ id: first + i, payload: `p${first + i}` }),
        }));
        await producer.send({ topic: this.topic, acks: -1, messages });
        this.sent += messages.length;
        await new Promise((r) => setTimeout(r, this.tickMs));
      }
    } finally {
      await producer.disconnect();
    }
  }
}
