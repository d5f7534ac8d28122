import { useState } from 'react';
import { Button, Form, Input, Label, TextArea, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { constants, type Template } from '@numa/contract';
import { Loading } from '../../../components/Spinner';
import { useDeleteTemplate, useSaveTemplate, useTemplates } from '../api/templates';
import './templates.css';

/**
 * Account › Saved replies (issue 22 §3): the account's templates, added, changed and deleted here,
 * inserted in a chat from the composer's Templates menu (or `/` in an empty message box).
 */
export default function TemplatesPanel() {
  const { t } = useTranslation();
  const list = useTemplates();
  const save = useSaveTemplate();
  const del = useDeleteTemplate();
  const [editing, setEditing] = useState<Template | null>(null);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [done, setDone] = useState('');

  const edit = (tpl: Template | null) => {
    setEditing(tpl);
    setName(tpl?.name ?? '');
    setText(tpl?.text ?? '');
  };
  const templates = list.data?.templates ?? [];
  const max = list.data?.max ?? constants.templatesMax;
  const full = !editing && templates.length >= max;

  return (
    <section className="panel templates-panel" aria-labelledby="templates-title">
      <h2 id="templates-title">{t('messaging.templates.title')}</h2>
      <p className="muted">{t('messaging.templates.intro')}</p>
      {list.isPending ? (
        <Loading label={t('app.loading')} />
      ) : list.isError ? (
        <div className="error-state" role="alert">
          <p>{t('messaging.templates.loadFailed')}</p>
          <Button className="button" onPress={() => void list.refetch()}>
            {t('app.retry')}
          </Button>
        </div>
      ) : (
        <>
          <p className="muted">{t('messaging.templates.count', { count: templates.length, max })}</p>
          {templates.length === 0 ? (
            <p className="templates-empty">{t('messaging.templates.empty')}</p>
          ) : (
            <ul className="templates-list" aria-label={t('messaging.templates.title')}>
              {templates.map((tpl) => (
                <li key={tpl.id} className="templates-item">
                  <div className="templates-item-body">
                    <strong>{tpl.name}</strong>
                    <span className="muted">{tpl.text}</span>
                  </div>
                  <Button
                    className="button"
                    aria-label={t('messaging.templates.editOne', { name: tpl.name })}
                    onPress={() => edit(tpl)}
                  >
                    {t('messaging.templates.edit')}
                  </Button>
                  <Button
                    className="button danger"
                    aria-label={t('messaging.templates.deleteOne', { name: tpl.name })}
                    isDisabled={del.isPending}
                    onPress={() =>
                      del.mutate(tpl.id, {
                        onSuccess: () => {
                          setDone(t('messaging.templates.deleted', { name: tpl.name }));
                          if (editing?.id === tpl.id) edit(null);
                        },
                      })
                    }
                  >
                    {t('messaging.templates.delete')}
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <Form
            className="templates-form"
            aria-label={editing ? t('messaging.templates.editTitle') : t('messaging.templates.addTitle')}
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate(
                { ...(editing ? { id: editing.id } : {}), name: name.trim(), text: text.trim() },
                {
                  onSuccess: () => {
                    setDone(t('messaging.templates.saved', { name: name.trim() }));
                    edit(null);
                  },
                },
              );
            }}
          >
            <h3>{editing ? t('messaging.templates.editTitle') : t('messaging.templates.addTitle')}</h3>
            <TextField
              className="field"
              value={name}
              onChange={setName}
              isRequired
              maxLength={constants.templateNameMax}
            >
              <Label>{t('messaging.templates.name')}</Label>
              <Input className="input" />
            </TextField>
            <TextField
              className="field"
              value={text}
              onChange={setText}
              isRequired
              maxLength={constants.templateTextMax}
            >
              <Label>{t('messaging.templates.text')}</Label>
              <TextArea className="input templates-text" rows={3} />
            </TextField>
            <div className="templates-actions">
              <Button
                type="submit"
                className="button primary"
                isDisabled={full || save.isPending || !name.trim() || !text.trim()}
              >
                {t('messaging.templates.save')}
              </Button>
              {editing && (
                <Button className="button" onPress={() => edit(null)}>
                  {t('messaging.templates.cancel')}
                </Button>
              )}
            </div>
            {full && <p className="muted">{t('messaging.templates.full', { max })}</p>}
          </Form>
          <p className="sr-only" role="status">
            {done}
          </p>
        </>
      )}
    </section>
  );
}
