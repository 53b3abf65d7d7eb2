import { IdentityProviders } from "./_components/identity-providers";

// /console/identity - the ID-JAG providers the storefront trusts, and its hosts
export default function IdentityPage() {
  return <IdentityProviders />;
}
