"use client";

import { usd } from "../../../_components/format";
import { OwnerOnly } from "../../../_components/owner-only";
import { Section, STACKED_TABLE_CLASS, TableScroll } from "../../../_components/section";
import type { Outputs } from "../../../_components/types";
import { IncludedUnitsEditor } from "./included-units-editor";

type Catalog = Outputs["catalog"]["overview"];

/** The meters: what each counts, its free units per claimed person (editable), its price and the operations it prices. */
export function MetersTable({ o }: { o: Catalog }) {
  return (
    <Section title="Meters" testId="section-meters">
      <OwnerOnly>
        <TableScroll label="Meters">
          <table className={STACKED_TABLE_CLASS} data-testid="meters-table">
            <thead className="text-slate-600">
              <tr>
                <th className="py-1">Meter</th>
                <th>Unit</th>
                <th>Free included units (per claimed person)</th>
                <th className="text-right">Price per unit</th>
                <th>Operations</th>
              </tr>
            </thead>
            <tbody>
              {o.meters.map((m) => {
                const ops = o.services.flatMap((s) => s.operations.filter((op) => op.meter === m.key));
                return (
                  <tr key={m.id} className="border-t border-slate-100 align-top" data-testid={`plans-meter-${m.key}`}>
                    <td className="py-2" data-label="Meter">
                      {m.title} <span className="block font-mono text-xs text-slate-600">{m.key}</span>
                    </td>
                    <td data-label="Unit">{m.unit}</td>
                    <td data-label="Free included units">
                      <IncludedUnitsEditor meter={m} />
                    </td>
                    <td className="text-right tabular-nums" data-label="Price per unit">
                      {m.priceUsd === null ? "not priced" : usd(m.priceUsd)}
                    </td>
                    <td className="font-mono text-xs" data-label="Operations">
                      {ops.map((op) => op.key).join(", ") || "—"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      </OwnerOnly>
    </Section>
  );
}

/** The services and the operations they sell, with the meter each is priced by. */
export function ServicesList({ o }: { o: Catalog }) {
  return (
    <Section title="Services and operations" testId="section-services">
      {o.services.map((s) => (
        <div key={s.id} className="mb-4">
          <h3 className="font-medium">
            {s.title} <span className="font-mono text-sm text-slate-600">{s.slug}</span>
          </h3>
          <ul className="mt-1 ml-4 text-sm">
            {s.operations.map((op) => (
              <li key={op.id} className="break-words">
                <span className="font-mono">
                  {op.method} {op.path}
                </span>{" "}
                <span className="text-slate-600">
                  {op.summary} · meter {op.meter ?? "none"}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Section>
  );
}
