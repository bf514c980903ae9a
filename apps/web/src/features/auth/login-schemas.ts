// The login form's rules, in a module of their own so that the form can fetch them (and zod) lazily.
export { captchaField, loginBody } from '@resi/contract';
