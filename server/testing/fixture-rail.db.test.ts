// A rail that is not part of the storefront, registered with one line, passes the same battery as the built-in rails
// through the real gateway, discovery and outbox, with no edit anywhere else: a rail is one folder plus one line.
import { voucherKit, voucherRail } from "./fixture-rail";
import { describeRailConformance } from "./rail-conformance";
import { registerTestRail } from "./rails";

registerTestRail(voucherRail);

describeRailConformance([voucherKit]);
