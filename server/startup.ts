import { env, EnvError } from "./env";

/** Validate the environment once at start-up; a bad setting stops the process with its name. */
export function checkEnvironmentOrExit(): void {
  try {
    env();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(`\n${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}
