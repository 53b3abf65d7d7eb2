// A seller's upstream as most sellers have one: an HTTP API in a process of its own. For the gateway bench's
// networked case it answers every GET with the same bytes the built-in market upstream gave for the benchmarked call
// (so the direct and the gateway paths move the same answer), gzipped for clients that ask (as Next.js does for the
// built-in one), on keep-alive connections, and checks nothing.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const SERVER = `
const http = require("node:http");
const fs = require("node:fs");
const body = fs.readFileSync(process.env.BODY_FILE);
const gzipped = require("node:zlib").gzipSync(body);
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] || "");
    const out = gzip ? gzipped : body;
    const headers = { "content-type": "application/json; charset=utf-8", "content-length": out.length, vary: "accept-encoding" };
    if (gzip) headers["content-encoding"] = "gzip";
    res.writeHead(200, headers).end(out);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));
`;

export async function startHttpUpstream(body: Buffer): Promise<{ url: string; stop: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-upstream-"));
  const bodyFile = path.join(dir, "body.json");
  fs.writeFileSync(bodyFile, body);
  const child: ChildProcess = spawn(process.execPath, ["-e", SERVER], { env: { ...process.env, BODY_FILE: bodyFile }, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the bench upstream exited (${code}) before listening`)));
    child.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      child.kill("SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
