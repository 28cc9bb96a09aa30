// Waits until a Kafka broker answers a real metadata request (not just a TCP connect: a KRaft broker
// accepts connections before it has caught up with the controller and can serve metadata).
// Usage: node scripts/lib/kafka-ready.mjs <host:port> <timeout-seconds>
// Exit 0 when ready, 1 on timeout (last error printed).
import net from 'node:net';
import kafkajs from 'kafkajs';

const [broker = '127.0.0.1:9092', timeoutArg = '90'] = process.argv.slice(2);
const deadline = Date.now() + Number(timeoutArg) * 1000;
const [host, port] = [broker.slice(0, broker.lastIndexOf(':')), Number(broker.slice(broker.lastIndexOf(':') + 1))];

function tcpOpen() {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => { s.destroy(); resolve(false); });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let lastError = 'no TCP connection';
while (Date.now() < deadline) {
  if (await tcpOpen()) {
    const kafka = new kafkajs.Kafka({
      clientId: 'sluice-kafka-ready',
      brokers: [broker],
      logLevel: kafkajs.logLevel.NOTHING,
      retry: { retries: 0 },
      connectionTimeout: 2000,
      requestTimeout: 5000,
    });
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.listTopics();
      await admin.describeCluster();
      await admin.disconnect();
      process.exit(0);
    } catch (e) {
      lastError = String(e && e.message ? e.message : e);
      await admin.disconnect().catch(() => {});
    }
  }
  await sleep(500);
}
console.error(`kafka-ready: ${broker} not ready after ${timeoutArg}s: ${lastError}`);
process.exit(1);
