/**
 * The password pool's worker thread: Argon2id hashing and verification, one job at a time,
 * away from the thread that serves HTTP, the broker and ingest.
 */
import { parentPort } from "node:worker_threads";
import { argon2id, argon2Verify } from "hash-wasm";

/** A job sent to the worker. */
export type PasswordJob =
  | { id: number; op: "hash"; password: string }
  | { id: number; op: "verify"; password: string; hash: string };

/** The worker's answer. */
export type PasswordAnswer = { id: number; value: string | boolean } | {
  id: number;
  error: string;
};

async function run(job: PasswordJob): Promise<string | boolean> {
  if (job.op === "hash") {
    return await argon2id({
      password: job.password,
      salt: crypto.getRandomValues(new Uint8Array(16)),
      parallelism: 1,
      iterations: 2,
      memorySize: 19456,
      hashLength: 32,
      outputType: "encoded",
    });
  }
  return await argon2Verify({ password: job.password, hash: job.hash });
}

parentPort?.on("message", async (job: PasswordJob) => {
  let answer: PasswordAnswer;
  try {
    answer = { id: job.id, value: await run(job) };
  } catch (e) {
    answer = { id: job.id, error: String(e) };
  }
  parentPort!.postMessage(answer);
});
