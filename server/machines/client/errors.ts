import { JSONRPCErrorException } from 'json-rpc-2.0'
import type { ClientErrorCode } from '../protocol.ts'

/** A refusal the server maps to an HTTP status (see CLIENT_ERRORS in protocol.ts). */
export class ClientError extends JSONRPCErrorException {
  constructor(code: ClientErrorCode, message: string) {
    super(message, -32000, { code })
  }
}
