// Runs once when a server instance starts: validate the environment (fail fast, naming the bad setting),
// then start the background loops this instance takes part in.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkEnvironmentOrExit } = await import("./server/startup");
  checkEnvironmentOrExit();
}
