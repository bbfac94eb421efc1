-- A task's request without its inline inputs (images and clips sent as bytes), each replaced by a marker
-- of its length. TaskStore applies it once the upstream accepted the task (it is never submitted again)
-- and at every terminal transition, so that a row keeps no bytes nobody reads any more: a task refused
-- or cancelled before any charge stores no 20 MiB image for the retention's 30 days.
--
-- Inline: a string of 1,024 characters or more that starts with "data:", or any string longer than
-- 65,536 characters: the largest free-form field a task route stores (STORED_FIELD_LIMITS), so only
-- bytes, such as the raw Base64 images of the beta and gamma wires, are longer.
CREATE FUNCTION task_request_without_inline_inputs(value jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  text_value text;
BEGIN
  CASE jsonb_typeof(value)
    WHEN 'string' THEN
      text_value := value #>> '{}';
      IF length(text_value) > 65536 OR (length(text_value) >= 1024 AND left(text_value, 5) = 'data:') THEN
        RETURN to_jsonb(
          '[inline input of ' || length(text_value) || ' characters, dropped once the upstream accepted the task]'
        );
      END IF;
      RETURN value;
    WHEN 'array' THEN
      RETURN coalesce(
        (SELECT jsonb_agg(task_request_without_inline_inputs(item) ORDER BY position)
           FROM jsonb_array_elements(value) WITH ORDINALITY AS items(item, position)),
        '[]'::jsonb
      );
    WHEN 'object' THEN
      RETURN coalesce(
        (SELECT jsonb_object_agg(key, task_request_without_inline_inputs(item))
           FROM jsonb_each(value) AS entries(key, item)),
        '{}'::jsonb
      );
    ELSE
      RETURN value;
  END CASE;
END;
$$;
