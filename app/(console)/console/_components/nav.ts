// The console's areas, one URL each, in the order the navigation lists them.
export const NAV: { group: string; items: { href: string; label: string }[] }[] = [
  {
    group: "Business",
    items: [
      { href: "/console", label: "Overview" },
      { href: "/console/payments", label: "Payments" },
      { href: "/console/usage", label: "Usage" },
      { href: "/console/refunds", label: "Refunds" },
      { href: "/console/customers", label: "Customers" },
    ],
  },
  {
    group: "Insights",
    items: [
      { href: "/console/funnel", label: "402 funnel" },
      { href: "/console/margin", label: "Margin" },
    ],
  },
  {
    group: "Catalog",
    items: [
      { href: "/console/prices", label: "Prices" },
      { href: "/console/plans", label: "Plans and meters" },
    ],
  },
  {
    group: "Platform",
    items: [
      { href: "/console/archive", label: "Archive coverage" },
      { href: "/console/coverage", label: "Data coverage" },
      { href: "/console/identity", label: "Identity providers" },
      { href: "/console/webhooks", label: "Webhooks and alerts" },
    ],
  },
  {
    group: "Account",
    items: [
      { href: "/console/audit", label: "Audit log" },
      { href: "/console/settings", label: "Settings" },
    ],
  },
];

/** The item a path belongs to: exact for the overview, by prefix for the others (a payment's page is under Payments). */
export function isActive(href: string, pathname: string): boolean {
  return href === "/console" ? pathname === "/console" : pathname === href || pathname.startsWith(`${href}/`);
}
