import { Settings } from "./_components/settings";

// /console/settings - the storefront, transaction links per network, the ETH/USD rate for gas costs
export default function SettingsPage() {
  return <Settings />;
}
