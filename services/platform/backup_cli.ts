/**
 * The command line shared by `deno task backup FILE` and `deno task restore FILE`: one
 * argument, the configuration read from the environment (exit status 2 when either is wrong),
 * a refused backup or restore told on stderr with exit status 1, the summary on stdout.
 */
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { BackupRefused } from "./backup.ts";

const write = (to: typeof Deno.stdout | typeof Deno.stderr, line: string) =>
  to.writeSync(new TextEncoder().encode(line + "\n"));
const fail = (line: string, code: number): never => {
  write(Deno.stderr, line);
  Deno.exit(code);
};

/** Runs `work` on the archive named by the only argument; prints the line it returns. */
export async function runBackupCommand(
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
