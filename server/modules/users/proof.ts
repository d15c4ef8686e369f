import type { FastifyRequest } from 'fastify';
import { secondFactorAnswerOf, type SecondFactorProofBody } from '../auth/two-factor/proof.js';
import type { AccountProof } from './service.js';

/**
 * What the request proves about its caller, for changes to the account itself
 * and for an admin's sensitive changes to others (issue 30 finding 8). A
 * session an admin started as someone else ("sign in as") is no recent
 * sign-in by that person, so it never stands in for their password.
 */
export function proofOf(request: FastifyRequest, currentPassword: string | undefined, secondFactor?: SecondFactorProofBody): AccountProof {
  return {
    currentPassword,
    secondFactor: secondFactorAnswerOf(request, secondFactor),
    via: request.authVia,
    tokenScopes: request.tokenScopes,
    signedInAt: request.impersonatorId === null ? request.signedInAt : null,
    sessionToken: request.sessionToken,
    ip: request.ip,
  };
}
