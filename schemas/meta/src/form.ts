/** `form`: a Formily form shown as a page, modal or drawer, in modes add / edit / view. */
import { Type, type Static } from '@sinclair/typebox';
import { ApiCall, ApiRef, I18nKey, ModuleName, ParamMap, PermissionKey, Props, RoutePath, doc, header, StringEnum } from './common.js';
import { FormilyObject } from './formily.js';

export const Submit = Type.Object(
  {
    api: doc(ApiRef, 'the submit call: "METHOD path" of a server route under /api/admin/', ['POST role/create']),
    /** extra body fields (literal or {{ }}); merged over the form values */
    body: Type.Optional(doc(ParamMap, 'extra body fields (literal or {{ }}); merged over the form values', [{ id: '{{ params.id }}' }])),
    /** send the form values as the body base (default true) */
    includeValues: Type.Optional(doc(Type.Boolean(), 'send the form values as the body base (default true)', [false])),
    successMessage: Type.Optional(doc(I18nKey, 'toast after success (i18n key)', ['admin.role.saved'])),
    /**
     * a call made before the submit, after the form validated: when `refuseWhen` (an expression
     * over the reply, e.g. "exists") is true the submit is not sent and `message` shows on
     * `field` (or as an error toast); e.g. a product id that is registered already
     */
    check: Type.Optional(
      doc(
        Type.Object(
          {
            api: doc(ApiRef, 'the check call: "METHOD path" of a server route under /api/admin/', ['POST shop/douyin-shop-policy-product/check-product-exists']),
            /** the body (literal or {{ }} over values, params, record) */
            body: Type.Optional(doc(ParamMap, 'the body (literal or {{ }} over values, params, record)', [{ product_id: '{{ values.product_id }}' }])),
            refuseWhen: doc(Type.String({ pattern: '\\S' }), 'expression over the reply: true refuses the submit', ['exists']),
            message: doc(I18nKey, 'message shown when refused (i18n key)', ['text.douyinProduct.exists']),
            field: Type.Optional(doc(Type.String({ pattern: '^[A-Za-z0-9_.]+$' }), 'the field the message shows on (default: an error toast)', ['product_id'])),
          },
          { additionalProperties: false },
        ),
        'a call made before the submit: when `refuseWhen` holds the submit is not sent and `message` shows',
        [{ api: 'POST shop/douyin-shop-policy-product/check-product-exists', refuseWhen: 'exists', message: 'text.douyinProduct.exists', field: 'product_id' }],
      ),
    ),
    /**
     * the submit is a file download (a download modal): the values go as the body and the reply
     * is saved as a file (its Content-Disposition name, else `fileName`, else file.csv); a
     * refusal shows on the fields as for any submit
     */
    download: Type.Optional(
      doc(
        Type.Object(
          {
            fileName: Type.Optional(
              doc(Type.String({ pattern: '^[\\w.() -]{1,200}$' }), 'the file name when the reply names none (default file.csv)', ['customers.csv']),
            ),
          },
          { additionalProperties: false },
        ),
        'the submit is a file download: the reply is saved as a file (its own name, else fileName, else file.csv)',
        [{}, { fileName: 'customers.csv' }],
      ),
    ),
    /**
     * show the reply in a dialog (instead of a toast) that stays until closed, with one reply
     * value as copyable text, e.g. a generated password
     */
    resultDialog: Type.Optional(
      doc(
        Type.Object(
          {
            title: doc(I18nKey, 'dialog title (i18n key)', ['admin.user.passwordReset']),
            /** text above the value; the reply's fields interpolate */
            message: Type.Optional(doc(I18nKey, "text above the value; the reply's fields interpolate (i18n key)", ['admin.user.newPasswordIs'])),
            /** dotted path in the reply of the value shown as copyable text */
            copy: Type.Optional(doc(Type.String({ pattern: '^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*$' }), 'dotted path in the reply of the value shown as copyable text', ['password'])),
          },
          { additionalProperties: false },
        ),
        'show the reply in a dialog that stays until closed, with one value as copyable text',
        [{ title: 'admin.user.passwordReset', copy: 'password' }],
      ),
    ),
  },
  { additionalProperties: false },
);

export const Then = Type.Object(
  {
    action: doc(StringEnum(['close', 'back', 'navigate', 'stay']), 'what happens after a successful submit', ['close']),
    to: Type.Optional(doc(Type.String(), 'for navigate; {{ }} parts filled from values, params, result', ['/admin_center/authCenter/role/edit/{{ result.id }}'])),
  },
  { additionalProperties: false },
);

export const ModeSpec = Type.Object(
  {
    title: Type.Optional(doc(I18nKey, 'title in this mode (i18n key); default: the form\'s title', ['admin.role.editTitle'])),
    route: Type.Optional(doc(RoutePath, 'route of a page form in this mode (in the permission manifest)', ['/admin_center/authCenter/role/edit/:id'])),
    permission: Type.Optional(doc(PermissionKey, 'permission key needed for this mode', ['admin_center.admin.permission.role.update'])),
    /** overrides the form's load call for this mode */
    load: Type.Optional(doc(ApiCall, "overrides the form's load call for this mode", [{ api: 'GET role/detail', params: { id: '{{ params.id }}' } }])),
    submit: Type.Optional(doc(Submit, 'the call that saves the form in this mode', [{ api: 'POST role/update' }])),
  },
  { additionalProperties: false },
);

export const FormSchema = Type.Object(
  {
    ...header('form'),
    module: Type.Optional(doc(ModuleName, 'the module the form belongs to; default: the folder it is in, schemas/forms/<module>/', ['admin_center'])),
    permission: Type.Optional(doc(PermissionKey, 'permission key needed to open the form in any mode', ['admin_center.admin.permission.role'])),
    title: doc(I18nKey, 'form title (i18n key)', ['admin.role.formTitle']),
    presentation: Type.Optional(
      doc(StringEnum(['page', 'modal', 'drawer']), 'shown as a page (own route), a modal or a drawer. Default: page when a mode has a route, else modal', ['drawer']),
    ),
    modes: doc(
      Type.Object(
        {
          add: Type.Optional(doc(ModeSpec, 'the add (create) mode', [{ submit: { api: 'POST role/create' } }])),
          edit: Type.Optional(doc(ModeSpec, 'the edit mode', [{ submit: { api: 'POST role/update' } }])),
          view: Type.Optional(doc(ModeSpec, 'the read-only view mode', [{ title: 'admin.role.viewTitle' }])),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
      'the modes the form opens in (at least one)',
      [{ add: { submit: { api: 'POST role/create' } }, edit: { submit: { api: 'POST role/update' } } }],
    ),
    /** load call for edit / view (params see `params`: route params or openForm params) */
    load: Type.Optional(doc(ApiCall, 'load call for edit / view (params see `params`: route params or openForm params)', [{ api: 'GET role/detail', params: { id: '{{ params.id }}' } }])),
    schema: doc(FormilyObject, 'the fields: a Formily object schema', [{ type: 'object', properties: { name: { type: 'string', 'x-decorator': 'FormItem', 'x-component': 'Input' } } }]),
    /** FormLayout props: labelCol, wrapperCol, layout, … */
    layout: Type.Optional(doc(Props, 'FormLayout props: labelCol, wrapperCol, layout, …', [{ labelCol: 6, wrapperCol: 16 }])),
    width: Type.Optional(doc(Type.Integer({ minimum: 200 }), 'modal / drawer width in px', [640])),
    successMessage: Type.Optional(doc(I18nKey, 'toast after a successful submit in any mode (i18n key)', ['admin.role.saved'])),
    then: Type.Optional(doc(Then, 'what happens after a successful submit (default: close)', [{ action: 'back' }])),
    okText: Type.Optional(doc(I18nKey, 'text of the submit button (i18n key)', ['common.save'])),
  },
  { additionalProperties: false },
);

export type TSubmit = Static<typeof Submit>;
export type TModeSpec = Static<typeof ModeSpec>;
export type TFormSchema = Static<typeof FormSchema>;
export type TThen = Static<typeof Then>;
