// The vitest config Stryker runs a mutation group's tests with: the project's, narrowed to the group's tests.
import { defineConfig } from "vitest/config";
import base from "../vitest.config.ts";
import { GROUP_VARIABLE, groupVitestConfig, mutationGroup } from "./mutation-config.ts";

export default defineConfig(groupVitestConfig(base, mutationGroup(process.env[GROUP_VARIABLE])));
