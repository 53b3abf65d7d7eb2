// The real SMTP path (nodemailer) against a minimal SMTP server on localhost: what a human's mail server
// receives, and what the human is told when the server refuses or is not there.
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { withEnvForTests } from "../env";
import { requestSignInCode } from "./human-sign-in";
import { sendMail } from "./send-mail";

type Received = { from: string; to: string[]; data: string };

/** Just enough RFC 5321 to take a message (no TLS, no auth); `rejectRcpt` answers 550 to every recipient. */
function startSmtpServer(opts: { rejectRcpt?: boolean } = {}) {
  const received: Received[] = [];
  const server = net.createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current: Received = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 test.smtp ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: "", to: [], data: "" };
          reply("250 2.0.0 queued");
          continue;
        }
        const nl = buffer.indexOf("\r\n");
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 test.smtp");
        else if (verb === "MAIL") {
          current.from = line.slice(10).trim();
          reply("250 2.1.0 ok");
        } else if (verb === "RCPT") {
          if (opts.rejectRcpt) reply("550 5.1.1 no such user");
          else {
            current.to.push(line.slice(8).trim());
            reply("250 2.1.5 ok");
          }
        } else if (verb === "DATA") {
          inData = true;
          reply("354 end with .");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else if (verb === "RSET" || verb === "NOOP") reply("250 ok");
        else reply("502 5.5.2 not implemented");
      }
    });
    socket.on("error", () => {});
  });
  return {
    received,
    listen: () => new Promise<string>((r) => server.listen(0, "127.0.0.1", () => r(`smtp://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Sign-in mail goes over SMTP at `url` (or nowhere when undefined), not to the demo outbox. */
function withSmtp<T>(url: string | undefined, fn: () => Promise<T>): Promise<T> {
  return withEnvForTests({ IDENTITY_DEV_OUTBOX: "0", IDENTITY_SMTP_URL: url, IDENTITY_MAIL_FROM: "Storefront <no-reply@storefront.test>" }, fn);
}

const ok = startSmtpServer();
const refusing = startSmtpServer({ rejectRcpt: true });
let okUrl = "";
let refusingUrl = "";

beforeAll(async () => {
  okUrl = await ok.listen();
  refusingUrl = await refusing.listen();
});
afterAll(async () => {
  await ok.close();
  await refusing.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("sign-in email over SMTP", () => {
  it("delivers the code to the human's address, from the configured sender", async () => {
    await withSmtp(okUrl, async () => {
      const before = ok.received.length;
      const res = await requestSignInCode({ email: "Human.Smtp@Example.test", origin: "https://shop.test", claimPath: "/claim/clm_abc" });
      expect(res).toEqual({ type: "sent", email: "human.smtp@example.test" });
      const mail = ok.received.slice(before);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.from).toContain("no-reply@storefront.test");
      expect(mail[0]!.to).toEqual(["<human.smtp@example.test>"]);
      const code = /Subject: Your sign-in code: (\d{6})/.exec(mail[0]!.data)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(mail[0]!.data).toContain(`Your sign-in code is ${code}`);
      expect(mail[0]!.data).toContain("https://shop.test/claim/clm_abc");
    });
  });

  it("a mail server that refuses the recipient: the human is told to retry, nothing is thrown", async () => {
    await withSmtp(refusingUrl, async () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      expect(await sendMail({ to: "someone@example.test", subject: "s", text: "t" })).toMatchObject({
        type: "failed",
        reason: "delivery_failed",
        detail: expect.stringContaining("550"),
      });
      const res = await requestSignInCode({ email: "refused.smtp@example.test", origin: "https://shop.test" });
      expect(res).toEqual({ type: "refused", detail: expect.stringContaining("could not send the email") });
    });
  });

  it("a mail server that is not there: the same answer, and the log never shows the SMTP URL's password", async () => {
    const closed = net.createServer();
    const port = await new Promise<number>((r) => closed.listen(0, "127.0.0.1", () => r((closed.address() as AddressInfo).port)));
    await new Promise<void>((r) => closed.close(() => r()));
    await withSmtp(`smtp://mailer:s3cret-pass@127.0.0.1:${port}`, async () => {
      const logged: string[] = [];
      vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
      const res = await requestSignInCode({ email: "nobody.smtp@example.test", origin: "https://shop.test" });
      expect(res.type).toBe("refused");
      expect(logged.join("\n")).toContain("nobody.smtp@example.test");
      expect(logged.join("\n")).not.toContain("s3cret-pass");
    });
  });

  it("without SMTP or the demo outbox, the human is told the storefront cannot send email yet", async () => {
    await withSmtp(undefined, async () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      expect(await sendMail({ to: "a@example.test", subject: "s", text: "t" })).toMatchObject({ type: "failed", reason: "not_configured" });
      const res = await requestSignInCode({ email: "unconfigured.smtp@example.test", origin: "https://shop.test" });
      expect(res).toEqual({ type: "refused", detail: expect.stringContaining("cannot send sign-in emails") });
    });
  });
});
