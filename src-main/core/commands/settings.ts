/**
 * Settings: the default brain, the theme, and each brain's base URL and key. Keys are write-only: a view says where a
 * key comes from, never what it is.
 */
import { redactKeys } from '../secrets/redact';
import { ApiError, type SettingsView } from '../../../src-shared/api';
import { AVAILABLE_BRAINS, BRAIN_IDS, BRAINS, FALLBACK_BRAIN } from '../../../src-shared/brains';
import { confirmKeyOrigin, connectionFor, forgetKeyOrigin } from '../brain-connection';
import { readSetting, writeSetting } from '../store/settings';
import type { CommandDependencies, HandlerGroup } from './handlers';
import { modelsToOffer } from '../../../src-shared/models/offered';

export type SettingsDependencies = Pick<CommandDependencies, 'db' | 'dataDir' | 'env' | 'keyStore' | 'engine' | 'modelReports'>;

export function settingsView({ db, dataDir, env, keyStore, engine }: SettingsDependencies): SettingsView {
  return {
    context: engine.windows.settingsView(),
    defaultBrain: readSetting(db, 'defaultBrain') ?? FALLBACK_BRAIN,
    theme: readSetting(db, 'theme') ?? 'system',
    canStoreKeys: keyStore?.canStore ?? false,
    keyStorage: {
      place: keyStore?.place ?? null,
      answering: keyStore?.answering ?? true,
      refusal: keyStore === undefined ? 'this host keeps no keys of its own' : keyStore.canStore ? null : keyStore.refusal,
      refusalDetail: keyStore === undefined || keyStore.canStore ? null : (keyStore.refusalDetail ?? null),
    },
    dataDir,
    brains: BRAIN_IDS.map((brain) => {
      const info = BRAINS[brain];
      const connection = connectionFor(db, brain, env, keyStore);
      const answer = engine.windows.providerAnswer(brain);
      return {
        brain,
        label: info.label,
        wire: info.wire,
        defaultModel: info.defaultModel,
        models: modelsToOffer(brain, answer?.models ?? null),
        modelsListedAt: answer === null ? null : answer.fetchedAt,
        reportedModels: answer === null ? [] : answer.models,
        baseUrl: connection.baseUrl,
        baseUrlOverride: connection.baseUrlOverride,
        keySource: connection.keySource,
        connectionProblem: connection.problem ?? null,
        available: AVAILABLE_BRAINS.includes(brain),
      };
    }),
  };
}

export function settingsCommands(dependencies: SettingsDependencies) {
  const { db, env, keyStore, modelReports } = dependencies;
  return {
    getSettings: () => settingsView(dependencies),
    setDefaultBrain: ({ brain }) => {
      writeSetting(db, 'defaultBrain', brain);
      return settingsView(dependencies);
    },
    setTheme: ({ theme }) => {
      writeSetting(db, 'theme', theme);
      return settingsView(dependencies);
    },
    setBaseUrl: ({ brain, baseUrl }) => {
      const baseUrls = { ...(readSetting(db, 'baseUrls') ?? {}) };
      if (baseUrl === null) delete baseUrls[brain];
      else baseUrls[brain] = baseUrl.replace(/\/+$/, '');
      writeSetting(db, 'baseUrls', baseUrls);
      return settingsView(dependencies);
    },
    setKey: async ({ brain, key }) => {
      if (!keyStore?.canStore) {
        const variable = BRAINS[brain].keyVariable;
        const why = keyStore?.refusal ? `: ${keyStore.refusal}${keyStore.refusalDetail ? ` (${keyStore.refusalDetail})` : ''}` : '';
        throw new ApiError(
          'keys-not-storable',
          `Keys cannot be stored here${why}. Set ${variable ?? 'the key variable'} in the environment before starting Anybrain.`,
        );
      }
      try {
        await keyStore.set(brain, key);
      } catch (error) {
        throw new ApiError('keys-not-storable', error instanceof Error ? error.message : String(error));
      }
      // A key typed in Settings is meant for the base URL shown beside it.
      if (key === null) forgetKeyOrigin(db, brain);
      else {
        confirmKeyOrigin(db, brain, connectionFor(db, brain, env, keyStore).baseUrl);
        modelReports.refreshSoon(brain);
      }
      return settingsView(dependencies);
    },
    testBrain: async ({ brain }) => {
      const info = BRAINS[brain];
      const answer = await modelReports.refresh(brain);
      if (!answer.ok) {
        if (!answer.sent) return { ok: false, message: answer.message };
        const said = redactKeys(answer.message, [connectionFor(db, brain, env, keyStore).apiKey]);
        return { ok: false, message: answer.answered ? `${info.label} answered ${said}` : said };
      }
      const count = answer.models.length;
      const listed = modelsToOffer(brain, answer.models);
      return { ok: true, message: `${info.label} answered: ${count} ${count === 1 ? 'model' : 'models'} available.`, models: listed };
    },
    confirmKeyHost: ({ brain }) => {
      const connection = connectionFor(db, brain, env, keyStore);
      if (connection.problem?.code === 'insecure-base-url') throw new ApiError('insecure-base-url', connection.problem.message);
      confirmKeyOrigin(db, brain, connection.baseUrl);
      return settingsView(dependencies);
    },
  } satisfies HandlerGroup;
}
