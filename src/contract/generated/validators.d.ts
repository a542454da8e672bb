/** Types of the generated standalone ajv validators (validators.js, `npm run schemas:meta`). */
export interface GeneratedError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: GeneratedError[] | null;
}
export const validate_list: GeneratedValidator;
export const validate_form: GeneratedValidator;
export const validate_detail: GeneratedValidator;
export const validate_tabs: GeneratedValidator;
export const validate_enum: GeneratedValidator;
