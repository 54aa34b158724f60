// Per lodkit test file: every policy registered, so that the tests name policies as strings as an
// app that registered them does (test/batch/policyRegistry.test.ts tests an app that did not,
// through the engine seam's withoutRegisteredPolicies).
import { allPolicies } from '../../src/batch/policyModules.js';
import { registerPolicies } from '../../src/batch/policyRegistry.js';

registerPolicies(allPolicies);
