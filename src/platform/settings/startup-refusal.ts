/** A reason the service will not start that the operator can fix (said in one line, without a stack trace). */
export class StartupRefusal extends Error {
  override name = "StartupRefusal";
}
