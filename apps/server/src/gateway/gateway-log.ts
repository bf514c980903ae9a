/** The slice of a pino/Fastify logger the gateway writes to. */
export interface GatewayLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLog: GatewayLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
