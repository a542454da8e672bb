/** `form`: a Formily form shown as a page, modal or drawer, in modes add / edit / view. */
import { Type, type Static } from '@sinclair/typebox';
import { ApiCall, ApiRef, I18nKey, ModuleName, ParamMap, PermissionKey, Props, RoutePath, header, StringEnum } from './common.js';
import { FormilyObject } from './formily.js';

export const Submit = Type.Object(
  {
    api: ApiRef,
    /** extra body fields (literal or {{ }}); merged over the form values */
    body: Type.Optional(ParamMap),
    /** send the form values as the body base (default true) */
    includeValues: Type.Optional(Type.Boolean()),
    successMessage: Type.Optional(I18nKey),
    /**
     * a call made before the submit, after the form validated: when `refuseWhen` (an expression
     * over the reply, e.g. "exists") is true the submit is not sent and `message` shows on
     * `field` (or as an error toast); e.g. a product id that is registered already
     */
    check: Type.Optional(
      Type.Object(
        {
          api: ApiRef,
          /** the body (literal or {{ }} over values, params, record) */
          body: Type.Optional(ParamMap),
          refuseWhen: Type.String({ pattern: '\\S' }),
          message: I18nKey,
          field: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.]+$' })),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * show the reply in a dialog (instead of a toast) that stays until closed, with one reply
     * value as copyable text, e.g. a generated password
     */
    resultDialog: Type.Optional(
      Type.Object(
        {
          title: I18nKey,
          /** text above the value; the reply's fields interpolate */
          message: Type.Optional(I18nKey),
          /** dotted path in the reply of the value shown as copyable text */
          copy: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*$' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const Then = Type.Object(
  {
    action: StringEnum(['close', 'back', 'navigate', 'stay']),
    to: Type.Optional(Type.String({ description: 'for navigate; {{ }} parts filled from values, params, result' })),
  },
  { additionalProperties: false },
);

export const ModeSpec = Type.Object(
  {
    title: Type.Optional(I18nKey),
    route: Type.Optional(RoutePath),
    permission: Type.Optional(PermissionKey),
    /** overrides the form's load call for this mode */
    load: Type.Optional(ApiCall),
    submit: Type.Optional(Submit),
  },
  { additionalProperties: false },
);

export const FormSchema = Type.Object(
  {
    ...header('form'),
    module: ModuleName,
    permission: Type.Optional(PermissionKey),
    title: I18nKey,
    presentation: StringEnum(['page', 'modal', 'drawer']),
    modes: Type.Object(
      { add: Type.Optional(ModeSpec), edit: Type.Optional(ModeSpec), view: Type.Optional(ModeSpec) },
      { additionalProperties: false, minProperties: 1 },
    ),
    /** load call for edit / view (params see `params`: route params or openForm params) */
    load: Type.Optional(ApiCall),
    schema: FormilyObject,
    /** FormLayout props: labelCol, wrapperCol, layout, … */
    layout: Type.Optional(Props),
    width: Type.Optional(Type.Integer({ minimum: 200 })),
    successMessage: Type.Optional(I18nKey),
    then: Type.Optional(Then),
    okText: Type.Optional(I18nKey),
  },
  { additionalProperties: false },
);

export type TSubmit = Static<typeof Submit>;
export type TModeSpec = Static<typeof ModeSpec>;
export type TFormSchema = Static<typeof FormSchema>;
export type TThen = Static<typeof Then>;
