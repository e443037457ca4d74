import { parentPort } from 'node:worker_threads';
import { createExtractors, extract } from './registry.js';
import { type TaskMessage, type WorkerMessage, errorToWire, fromWire } from './wire.js';

// An extraction worker thread (see pool.ts): the default extractors over one input at a time.

function serve(port: NonNullable<typeof parentPort>): void {
  const extractors = createExtractors();
  const send = (message: WorkerMessage) => port.postMessage(message);
  port.on('message', (task: TaskMessage) => {
    extract(fromWire(task.input), extractors).then(
      (result) => send({ id: task.id, result }),
      (err: unknown) => send({ id: task.id, error: errorToWire(err) }),
    );
  });
  send({ ready: true });
}

if (parentPort) serve(parentPort);
