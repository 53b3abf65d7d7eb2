// Every registered data operation passes one battery (server/testing/operation-conformance.ts), and so does an operation
// that is not part of the storefront, registered here with one line and no edit anywhere else: a data operation is one
// folder plus one line.
import { describeOperationConformance } from "../../testing/operation-conformance";
import { registerTestOperation } from "../../testing/operations";
import { fixtureRates } from "../../testing/fixture-operation";

registerTestOperation(fixtureRates);

describeOperationConformance();
