import type { FastifySchemaCompiler } from 'fastify';
import { safeParse, type $ZodIssue, type $ZodType } from 'zod/v4/core';
import { issueText, type Language, type ValidationIssue } from './i18n.ts';

// fastify-type-provider-zod's marks on a validation error, so its `hasZodFastifySchemaValidationErrors` knows ours.
const ZOD_VALIDATION_ERROR = Symbol.for('ZodFastifySchemaValidationError');

/**
 * fastify-type-provider-zod's validator, with each issue keeping its input (`reportInput`): the error handler says a
 * zod default text ("expected string, received undefined") again in the client's language, which needs the input.
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema }) =>
  (data) => {
    const result = safeParse(schema, data, { reportInput: true });
    if (!result.error) return { value: result.data };
    return {
      error: result.error.issues.map(({ path, code, message, ...params }: $ZodIssue) => ({
        [ZOD_VALIDATION_ERROR]: true,
        keyword: code,
        instancePath: `/${path.join('/')}`,
        schemaPath: `#/${path.join('/')}/${code}`,
        message,
        params,
      })),
    };
  };

/** The zod issue behind one entry of a validation error (as `validatorCompiler` made it). */
export const issueOf = (entry: { keyword: string; message?: string; params: object }): ValidationIssue => ({
  ...(entry.params as Record<string, unknown>),
  code: entry.keyword,
  message: entry.message ?? 'Invalid input',
});

/** The `error` of a refused request: the first issue's message in `language`, after its field ("rows.0.label: …"). */
export const validationText = (where: string, issue: ValidationIssue, language: Language): string => {
  const message = issueText(issue, language);
  return where ? `${where}: ${message}` : message;
};
