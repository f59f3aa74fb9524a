import { defineModule } from "../domain-module.ts";
import "./schema.ts";
import { sshKeyRest } from "./rest.ts";

export const sshKeysModule = defineModule({
  name: "ssh-keys",
  rest: [sshKeyRest],
  tallies: [],
  topics: [],
});
