// The worker thread behind compute.ts: runs the named task on the data it is sent, one answer per request id. A
// Buffer answer is sent as its own copy and transferred (a Buffer may share a pooled ArrayBuffer with others).
import { parentPort } from 'node:worker_threads';

import { z } from 'zod';

import { COMPUTE_TASKS, type ComputeTaskName } from './compute-tasks.js';

const requestSchema = z.object({
  id: z.number().int(),
  task: z.enum(Object.keys(COMPUTE_TASKS) as [ComputeTaskName, ...ComputeTaskName[]]),
  input: z.unknown(),
});

const port = parentPort;
if (!port) throw new Error('compute-worker.ts runs as a worker thread (see compute.ts)');

port.on('message', (raw: unknown) => {
  const { id, task, input } = requestSchema.parse(raw);
  // The input was built by the main thread for this very task (compute.ts types it); the clone keeps its shape.
  const run = COMPUTE_TASKS[task] as (input: unknown) => Promise<unknown>;
  run(input).then(
    (result) => {
      if (Buffer.isBuffer(result)) {
        const bytes = new Uint8Array(result);
        port.postMessage({ id, ok: true, result: bytes, buffer: true }, [bytes.buffer]);
      } else port.postMessage({ id, ok: true, result, buffer: false });
    },
    (error: unknown) =>
      port.postMessage({
        id,
        ok: false,
        task,
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
