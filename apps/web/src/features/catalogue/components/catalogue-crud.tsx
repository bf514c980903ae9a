import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Modal, Popconfirm, Space, Switch, Table, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { notify } from '@/lib/notify';
import type { CatalogueBody, CatalogueDto, CatalogueResource } from '../api/catalogue-types';
import { useDeleteCatalogueItem } from '../api/delete-catalogue-item';
import { useCatalogue } from '../api/get-catalogue';
import { useSaveCatalogueItem } from '../api/save-catalogue-item';

export interface CatalogueCrudProps<R extends CatalogueResource, V extends object> {
  resource: R;
  /** One translated sentence on what the list is, above it. */
  lead?: string;
  /** Translated texts: the add button, the dialog titles, the delete question. */
  texts: { add: string; create: string; edit: string; deleteConfirm: string };
  columns: TableColumnsType<CatalogueDto<R>>;
  /** Form.Items of the dialog (names are keys of V). */
  fields: ReactNode;
  newValues: () => V;
  toValues: (dto: CatalogueDto<R>) => V;
  toBody: (values: V) => CatalogueBody<R>;
  /** Items with an `enabled` flag get a switch in the table. */
  toggle?: boolean;
  modalWidth?: number;
}

type WithId = { id: number; enabled?: boolean };

/**
 * One catalogue list: a table (all items, disabled ones too) with add / edit in a dialog, delete with a
 * confirmation and, where the item has one, an enabled switch that saves at once.
 */
export function CatalogueCrud<R extends CatalogueResource, V extends object>(props: CatalogueCrudProps<R, V>) {
  const { resource, lead, texts, columns, fields, newValues, toValues, toBody, toggle = false, modalWidth = 640 } = props;
  const { t } = useTranslation();
  const list = useCatalogue(resource);
  const actionsPin = useActionsPin();
  const save = useSaveCatalogueItem(resource);
  const remove = useDeleteCatalogueItem(resource);
  const [form] = Form.useForm<V>();
  const [editing, setEditing] = useState<{ id: number | null; values: V } | null>(null);

  const submit = (values: V) => {
    if (!editing) return;
    save.mutate(
      { id: editing.id, body: toBody(values) },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('catalogue.saved'));
          setEditing(null);
        },
      },
    );
  };

  const switchEnabled = (dto: CatalogueDto<R>, enabled: boolean) => {
    const id = (dto as WithId).id;
    save.mutate({ id, body: toBody({ ...toValues(dto), enabled }) }, { onSuccess: (res) => notify.success(res.message || t('catalogue.saved')) });
  };

  const allColumns: TableColumnsType<CatalogueDto<R>> = [
    ...columns,
    ...(toggle
      ? [
          {
            title: t('catalogue.columns.enabled'),
            key: 'enabled',
            width: 110,
            render: (_v: unknown, dto: CatalogueDto<R>) => (
              <Switch size="small" checked={(dto as WithId).enabled === true} onChange={(on) => switchEnabled(dto, on)} aria-label={t('catalogue.columns.enabled')} />
            ),
          },
        ]
      : []),
    {
      title: t('catalogue.columns.actions'),
      key: 'actions',
      fixed: actionsPin,
      width: 180,
      render: (_v: unknown, dto: CatalogueDto<R>) => (
        <Space size={0}>
          <Button type="link" icon={<EditOutlined />} onClick={() => setEditing({ id: (dto as WithId).id, values: toValues(dto) })}>
            {t('catalogue.edit')}
          </Button>
          <Popconfirm
            title={texts.deleteConfirm}
            okText={t('catalogue.delete')}
            cancelText={t('admin.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync((dto as WithId).id).then((res) => notify.success(res.message || t('catalogue.deleted')), () => undefined)}
          >
            <Button type="link" danger icon={<DeleteOutlined />}>
              {t('catalogue.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div className="catalogue-crud" data-testid={`catalogue-${resource}`}>
      {lead ? <p className="muted">{lead}</p> : null}
      <div className="table-toolbar table-toolbar--end">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null, values: newValues() })} data-testid={`add-${resource}`}>
          {texts.add}
        </Button>
      </div>
      <QueryState query={list} rows={6}>
        {(items) => (
          <Table<CatalogueDto<R>>
            rowKey={(dto) => (dto as WithId).id}
            loading={list.isFetching}
            dataSource={items}
            columns={allColumns}
            // Not max-content: that lays every column out unwrapped, so a table ran past a laptop's width and its
      // last columns slid under the pinned Actions; auto widths wrap what may wrap and scroll only the rest.
      scroll={{ x: true }}
            pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (total) => t('commerce.total', { total }) }}
          />
        )}
      </QueryState>
      <Modal
        open={editing !== null}
        title={editing?.id === null ? texts.create : texts.edit}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        okText={save.isPending ? t('common.submitting') : t('catalogue.save')}
        cancelText={t('admin.cancel')}
        confirmLoading={save.isPending}
        width={modalWidth}
        destroyOnHidden
        data-testid={`edit-${resource}`}
      >
        {editing ? (
          <Form<V> name={`catalogue-${resource}`} form={form} layout="vertical" requiredMark={false} initialValues={editing.values} onFinish={submit} preserve={false} className="catalogue-form">
            {fields}
          </Form>
        ) : null}
      </Modal>
    </div>
  );
}
