"use client";

import { useQuery } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { useTRPC } from "../providers";
import { NAV, isActive } from "./nav";
import { INPUT } from "./section";

/** The shell's search: a payment id, wallet, transaction, credential, email, plan... on its own results page. */
function GlobalSearch() {
  const router = useRouter();
  const [q, setQ] = useState("");
  return (
    <form
      role="search"
      className="flex min-w-0 grow items-center gap-2 md:max-w-md"
      onSubmit={(e) => {
        e.preventDefault();
        if (q.trim()) router.push(`/console/search?q=${encodeURIComponent(q.trim())}`);
      }}
    >
      <label htmlFor="console-search" className="sr-only">
        Search payments, wallets, credentials, emails, plans
      </label>
      <input
        id="console-search"
        type="search"
        className={`${INPUT} w-full min-w-0`}
        placeholder="Search: pay_…, 0x…, agt_…, email, plan"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        data-testid="global-search"
      />
    </form>
  );
}

function NavLinks({ pathname, onNavigate }: { pathname: string; onNavigate?: () => void }) {
  return (
    <>
      {NAV.map((g) => (
        <div key={g.group} className="mb-4">
          <p className="px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">{g.group}</p>
          <ul className="mt-1">
            {g.items.map((item) => {
              const active = isActive(item.href, pathname);
              return (
                <li key={item.href}>
                  <Link
                    href={item.href}
                    onClick={onNavigate}
                    aria-current={active ? "page" : undefined}
                    className={`block rounded px-3 py-2 text-sm md:py-1.5 ${active ? "bg-indigo-50 font-medium text-indigo-800" : "text-slate-700 hover:bg-slate-100"}`}
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </>
  );
}

/** The console around every signed-in page: the navigation (a sidebar, or a menu on phones), who is signed in, sign out. */
export function Shell({ email, children }: { email: string; children: ReactNode }) {
  const trpc = useTRPC();
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const settings = useQuery(trpc.settings.get.queryOptions(undefined, { staleTime: 60_000 }));
  const name = settings.data?.storefront.name ?? "";
  return (
    <div className="min-h-screen md:flex">
      <a
        href="#content"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <aside className="hidden w-60 shrink-0 border-r border-slate-200 bg-white md:block">
        <div className="sticky top-0 max-h-screen overflow-y-auto px-3 py-5">
          <p className="px-3 text-xs text-slate-500">Seller console</p>
          <p className="mb-5 truncate px-3 font-semibold" data-testid="seller-name" title={name}>
            {name}
          </p>
          <nav aria-label="Console">
            <NavLinks pathname={pathname} />
          </nav>
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-2 md:px-8">
          <div className="flex min-w-0 items-center gap-2 md:hidden">
            <button
              type="button"
              className="min-h-10 rounded border border-slate-300 px-3 py-1 text-sm"
              aria-expanded={menuOpen}
              aria-controls="console-menu"
              onClick={() => setMenuOpen((o) => !o)}
              data-testid="menu-toggle"
            >
              {menuOpen ? "Close" : "Menu"}
            </button>
            <span className="hidden truncate font-semibold sm:inline">{name}</span>
          </div>
          <GlobalSearch />
          <div className="ml-auto flex shrink-0 items-center gap-3 text-sm">
            <span className="hidden truncate text-slate-600 sm:inline" data-testid="signed-in-email">
              {email}
            </span>
            <button
              type="button"
              className="min-h-10 shrink-0 text-indigo-700 underline underline-offset-2 md:min-h-6"
              onClick={() => signOut({ callbackUrl: "/console/sign-in" })}
            >
              Sign out
            </button>
          </div>
        </header>
        {menuOpen && (
          <nav id="console-menu" aria-label="Console" className="border-b border-slate-200 bg-white px-2 py-3 md:hidden" data-testid="mobile-menu">
            <NavLinks pathname={pathname} onNavigate={() => setMenuOpen(false)} />
          </nav>
        )}
        <main id="content" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 outline-none md:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}
