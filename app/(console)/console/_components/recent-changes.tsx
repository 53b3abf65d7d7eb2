"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../providers";
import { utc } from "./format";
import { LINK, Loaded, Section } from "./section";

/** The last audited changes of one kind of thing, under the page that makes them; the full log is its own page. */
export function RecentChanges({ targetType, title = "Recent changes" }: { targetType: string; title?: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.audit.list.queryOptions({ targetType }));
  return (
    <Section
      title={title}
      actions={
        <Link href={`/console/audit?target=${encodeURIComponent(targetType)}`} className={`${LINK} text-sm`}>
          Audit log
        </Link>
      }
    >
      <Loaded query={q} what="recent changes">
        {(d) =>
          d.entries.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="audit-log-empty">
              No changes yet.
            </p>
          ) : (
            <ul className="text-sm" data-testid="audit-log">
              {d.entries.slice(0, 5).map((a) => (
                <li key={a.id} className="border-t border-slate-100 py-1.5 first:border-t-0">
                  <span className="font-mono text-xs text-slate-600">{utc(a.at)}</span> <span>{a.actor ?? "system"}</span>{" "}
                  <span className="font-medium" title={a.action}>
                    {a.label}
                  </span>{" "}
                  <span className="text-slate-600">{a.targetName}</span>{" "}
                  {a.fields.map((c) => (
                    <span key={c.field} className="mr-2 text-xs break-all">
                      {c.label}: {c.before} → {c.after}
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
