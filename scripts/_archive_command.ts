/**
 * What `deno task backup FILE` and `deno task restore FILE` share: one argument, the portal's
 * configuration from the environment, the line printed on success, and the exit status (1 when
 * the archive or the data folder is refused, 2 for bad usage or settings).
 */
import { type Config, ConfigError, loadConfig } from "../services/platform/config.ts";
import { BackupRefused } from "../services/platform/backup.ts";

const write = (to: typeof Deno.stdout, line: string) =>
  to.writeSync(new TextEncoder().encode(line + "\n"));
const fail = (line: string, code: number): never => {
  write(Deno.stderr, line);
  Deno.exit(code);
};

/** Runs `work` on the file named by the only argument and prints what it answers. */
export async function runArchiveCommand(
  task: "backup" | "restore",
  work: (config: Config, file: string) => Promise<string>,
): Promise<void> {
  const [file] = Deno.args;
  if (!file || Deno.args.length !== 1) fail(`Usage: deno task ${task} FILE.tar.gz`, 2);
  let config: Config;
  try {
    config = loadConfig(Deno.env.toObject());
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message, 2);
    throw e;
  }
  try {
    write(Deno.stdout, await work(config, file));
  } catch (e) {
    if (e instanceof BackupRefused) fail(e.message, 1);
    throw e;
  }
}
