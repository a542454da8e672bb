/** Flattened permission keys of the lab and script-management areas (src/contract/permission-manifest.ts). */
const T = 'intelligent_text';
const P = 'panda_descendant';

/** The five keys of a task list page and its four hidden pages. */
export interface TaskKeys {
  page: string;
  add: string;
  edit: string;
  detail: string;
  result: string;
}

const taskKeys = (base: string): TaskKeys => ({
  page: base,
  add: `${base}.add`,
  edit: `${base}.edit`,
  detail: `${base}.detail`,
  result: `${base}.result`,
});

export const LK = {
  testTask: taskKeys(`${T}.text.script_manage.task_list`),
  ratingTask: taskKeys(`${T}.text.script_manage.rating_task_list`),
  dataSet: { page: `${T}.text.data_center.data_set`, add: `${T}.text.data_center.data_set.add`, edit: `${T}.text.data_center.data_set.edit` },
  ratingDataSet: {
    page: `${T}.text.data_center.rating_data_set`,
    add: `${T}.text.data_center.rating_data_set.add`,
    edit: `${T}.text.data_center.rating_data_set.edit`,
  },
  exitCode: `${T}.text.data_center.exit_code`,
  trainTask: { page: `${P}.lab.train.task`, add: `${P}.lab.train.task.add`, edit: `${P}.lab.train.task.edit`, detail: `${P}.lab.train.task.detail` },
  labDataset: { page: `${P}.lab.train.dataset`, add: `${P}.lab.train.dataset.add`, update: `${P}.lab.train.dataset.update` },
  content: { page: `${P}.lab.text.content`, detail: `${P}.lab.text.content.detail`, add: `${P}.lab.text.content.add`, update: `${P}.lab.text.content.update` },
  comment: `${P}.lab.text.comment`,
  labRole: `${P}.lab.account.role`,
  labUser: `${P}.lab.account.user`,
} as const;

/** Every key of a task area (pickers on its pages accept any of them). */
export const allTaskKeys = (k: TaskKeys): string[] => [k.page, k.add, k.edit, k.detail, k.result];
