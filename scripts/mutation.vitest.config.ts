// The vitest config Stryker runs a mutation group's tests with: the project's, narrowed to the group's tests.
import { defineConfig } from "vitest/config";
import base from "../vitest.config.ts";
import { GROUP_VARIABLE, mutationGroup } from "./mutation-config.ts";

const group = mutationGroup(process.env[GROUP_VARIABLE]);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: group.tests,
    // The same draws on every run, so a score moves only when the code or the tests do.
    env: { FC_SEED: process.env.FC_SEED ?? "20261125" },
  },
});
