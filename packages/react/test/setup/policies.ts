// Every lodkit policy registered, so that the tests write policy="budget" as an app that called
// registerPolicies(allPolicies) does (lodkit's policies are objects an app imports; see docs/react.md).
import { allPolicies, registerPolicies } from 'lodkit';

registerPolicies(allPolicies);
