"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../providers";
import { utc } from "./format";
import { Loaded, Section } from "./section";

/** The last audited changes of one kind of thing, under the page that makes them; the full log is its own page. */
export function RecentChanges({ targetType, title = "Recent changes" }: { targetType: string; title?: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.audit.list.queryOptions({ targetType }));
  return (
    <Section
      title={title}
      actions={
        <Link href={`/console/audit?target=${encodeURIComponent(targetType)}`} className="text-sm text-indigo-700 hover:underline">
          Audit log →
        </Link>
      }
    >
      <Loaded query={q} what="recent changes">
        {(d) =>
          d.entries.length === 0 ? (
            <p className="text-sm text-slate-500" data-testid="audit-log-empty">
              No changes yet.
            </p>
          ) : (
            <ul className="text-sm" data-testid="audit-log">
              {d.entries.slice(0, 5).map((a) => (
                <li key={a.id} className="border-t border-slate-100 py-1.5 first:border-t-0">
                  <span className="font-mono text-xs text-slate-500">{utc(a.at)}</span> <span>{a.actor ?? "system"}</span>{" "}
                  <span className="font-mono">{a.action}</span>{" "}
                  {a.changes.map((c) => (
                    <span key={c.field} className="mr-2 font-mono text-xs break-all">
                      {c.field}: {c.before} → {c.after}
                    </span>
                  ))}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </Section>
  );
}
