/** Flattened permission keys of the session, config-center, operations-tools and prompt pages. */
const T = 'intelligent_text';

export const SK = {
  chat: `${T}.text.session.chat`,
  chatTrain: `${T}.text.session.chat.train`,
  chatBatchStatus: `${T}.text.session.chat.batch_status`,
  mail: `${T}.text.session.mail`,
  voice: `${T}.text.session.voice`,
  mark: `${T}.text.session.mark`,
  markAdd: `${T}.text.session.mark.add`,
  markEdit: `${T}.text.session.mark.edit`,
  feedback: `${T}.text.session.feedback`,
  category: `${T}.text.shop.session_category`,
  voiceCategory: 'intelligent_voice.voice.customer.session_category',
  fallback: `${T}.admin.config_center.fallback`,
  voiceFallback: 'intelligent_voice.admin.config_center.fallback',
  modelStrategy: `${T}.admin.config_center.model_strategy`,
  autoLearn: `${T}.admin.config_center.auto_learn`,
  autoLearnShop: `${T}.admin.config_center.auto_learn_shop`,
  divert: `${T}.admin.config_center.diver_data`,
  server: `${T}.admin.config_center.model_services_config`,
  imageExtraction: `${T}.text.operations_tools.image_extraction`,
  imageExtractionAdd: `${T}.text.operations_tools.image_extraction.add`,
  fileUpload: `${T}.text.operations_tools.file_upload`,
  policyImport: `${T}.text.operations_tools.policy_import`,
  prompt: `${T}.text.learn.prompt_management`,
  /** the line diff of two prompt versions (learn/promptManagement/versions/:id) */
  promptVersions: `${T}.text.learn.prompt_management.versions`,
  playground: `${T}.text.script_manage.playground`,
} as const;
